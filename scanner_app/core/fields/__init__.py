"""Invoice and receipt fields (no Qt): extraction, checks, rules as data, reimbursement exports."""

from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.model import FIELD_NAMES, LOW_CONFIDENCE, Check, Field, InvoiceFields
from scanner_app.core.fields.rules import Rules, RulesError, default_rules, load_rules

__all__ = [
    "FIELD_NAMES",
    "LOW_CONFIDENCE",
    "Check",
    "Field",
    "InvoiceFields",
    "Rules",
    "RulesError",
    "default_rules",
    "extract_fields",
    "load_rules",
]

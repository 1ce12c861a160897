"""Triton Python-backend steps of the model repository (imported by model_repository/*/1/model.py).

The step modules import ``triton_python_backend_utils``, which exists only inside Triton's stub;
``providers`` is pure (the baseline uses it too).
"""

"""The one way to talk to Triton: the gRPC client, its options and TLS, several endpoints, the pipeline.

``triton`` is the client (a deadline on every call, retries, errors in words), ``options`` how it
is opened, ``tls`` its certificates, ``endpoints`` several servers behind one ``recognize``,
``pipeline_info`` what a server says about the pipeline.

May import: the core's shared modules and ``scanner_app.contract``; never Qt.
"""

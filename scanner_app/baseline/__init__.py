"""The serial baseline: the same OCR math and ONNX models in one Flask process, one request at a time.

It is the honest "before" of the Triton demo (`scanner-app serve --baseline`): the pipeline's own
code run in-process behind HTTP, with ONNX Runtime's default threading, as a typical Flask
service would. Modules: `engine` (the in-process OCR from the model repository), `app` (the
Flask app and its single-threaded server), `launcher` (BaselineProcess, a child process by PID)
and `ceiling` (the raw in-process throughput ceiling of the same work). The load engine's client
of it is scanner_app.load.baseline_target: this package knows nothing of the load engine.
"""

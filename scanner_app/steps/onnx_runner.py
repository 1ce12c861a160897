"""The embedded server's ONNX step: runs the model beside it through ONNX Runtime.

The NGC container runs the same model.onnx with Triton's onnxruntime backend (config.pbtxt);
the pip-installed server has only the Python backend, so configs/local.pbtxt selects this runner.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from scanner_app.steps.common import abandoned_response, error_response, model_config, parameter
from scanner_app.steps.heap import HeapTrimmer, stub_malloc, trim_threshold_bytes
from scanner_app.steps.limits import onnx_input_check
from scanner_app.steps.messages import client_message
from scanner_app.steps.providers import execution_providers, use_cpu_arena


class TritonPythonModel:
    """One ONNX Runtime session per model instance; requests of the same shape run as one batch."""

    def initialize(self, args: dict[str, Any]) -> None:
        stub_malloc()  # the server fixed glibc's mmap threshold for itself (steps/heap.py)
        import onnxruntime as ort

        config = model_config(args)
        options = ort.SessionOptions()
        options.intra_op_num_threads = int(parameter(config, "intra_op_threads", "1"))
        options.inter_op_num_threads = 1
        # Spinning pool threads steal the cores the other instances and steps need: off by default.
        options.add_session_config_entry(
            "session.intra_op.allow_spinning", parameter(config, "allow_spinning", "0")
        )
        arena = parameter(config, "cpu_mem_arena", "0")
        if not use_cpu_arena(arena, args.get("model_instance_name", ""), os.environ):
            # Every request has its own shape: ORT's CPU arena and memory patterns only ever grow
            # (the arena to the largest shapes seen, fragmented), so plain allocations, freed per run.
            options.enable_cpu_mem_arena = False
            options.enable_mem_pattern = False
        path = Path(args["model_repository"]) / args["model_version"] / "model.onnx"
        providers = execution_providers(
            args.get("model_instance_kind", "CPU"),
            int(args.get("model_instance_device_id", 0) or 0),
            ort.get_available_providers(),
            parameter(config, "accelerator", ""),
        )
        self.session = ort.InferenceSession(str(path), options, providers=providers)
        self.input_name = config["input"][0]["name"]
        self.output_names = [output["name"] for output in config["output"]]
        self.check_input = onnx_input_check(args["model_name"])
        # glibc keeps a run's freed buffers: given back when it holds more than this (steps/heap.py).
        threshold = trim_threshold_bytes(
            parameter(config, "heap_trim_mib", ""), args.get("model_instance_name", ""), os.environ
        )
        self.heap = HeapTrimmer.load(threshold)

    def execute(self, requests: list[Any]) -> list[Any]:
        arrays = [pb_utils.get_input_tensor_by_name(r, self.input_name).as_numpy() for r in requests]
        responses: list[Any] = [None] * len(requests)
        by_shape: dict[tuple[int, ...], list[int]] = {}
        for index, array in enumerate(arrays):
            problem = self.check_input(array)  # before any work: ORT would allocate for anything
            if problem:
                responses[index] = error_response(problem)
                continue
            abandoned = abandoned_response(requests[index])  # its client gave up: do not run it
            if abandoned is not None:
                responses[index] = abandoned
                continue
            by_shape.setdefault(array.shape[1:], []).append(index)
        for indices in by_shape.values():
            batch = np.concatenate([arrays[i] for i in indices]) if len(indices) > 1 else arrays[indices[0]]
            try:
                outputs = self.session.run(self.output_names, {self.input_name: batch})
            except Exception as exc:  # ORT raises its own exception types
                for i in indices:
                    message = f"inference failed: {client_message(str(exc))}"
                    responses[i] = error_response(message, invalid_argument=False)
                continue
            start = 0
            for i in indices:
                size = arrays[i].shape[0]
                tensors = [
                    pb_utils.Tensor(name, np.ascontiguousarray(out[start : start + size]))
                    for name, out in zip(self.output_names, outputs, strict=True)
                ]
                responses[i] = pb_utils.InferenceResponse(output_tensors=tensors)
                start += size
        self.heap.trim_if_holding()
        return responses

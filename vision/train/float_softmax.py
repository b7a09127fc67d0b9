"""An int8 face classifier whose softmax is computed in float: every layer as the file has it, the last step not.

    .venv/bin/python -m vision.train.float_softmax IN.tflite OUT.tflite

Why (issue 14 rounds 51-52, models/DETECTOR_ROUNDS.md): an int8 file's softmax output is quantised to 1/256, so
a die read wrong and sure reads 255/256 like a die read right, and no ask threshold tells them apart. The int8
network's logits are not saturated (scale 0.18 over -128..127 in the shipped file), so the same file with its
SOFTMAX moved after the DEQUANTIZE reads every die's logits exactly as before and gives their probabilities in
float: FULLY_CONNECTED (int8 logits) -> SOFTMAX (int8) -> DEQUANTIZE becomes FULLY_CONNECTED -> DEQUANTIZE ->
SOFTMAX (float32), the graph's output tensor unchanged. Needs no TensorFlow: the TFLite runtime ships the file
format's schema (ai_edge_litert.schema_py_generated) and flatbuffers.
"""
from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

import numpy as np


def _schema():
    import flatbuffers
    from ai_edge_litert import schema_py_generated as schema
    return flatbuffers, schema


def _name(model, schema, op) -> str:
    code = model.operatorCodes[op.opcodeIndex]
    number = max(code.builtinCode, code.deprecatedBuiltinCode)
    return next(k for k, v in vars(schema.BuiltinOperator).items() if v == number and not k.startswith("_"))


def float_softmax(data: bytes) -> bytes:
    """The file's bytes with its final int8 SOFTMAX -> DEQUANTIZE turned into DEQUANTIZE -> float SOFTMAX."""
    flatbuffers, schema = _schema()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    graph = model.subgraphs[0]
    if len(graph.operators) < 2 or [_name(model, schema, op) for op in graph.operators[-2:]] != ["SOFTMAX",
                                                                                                  "DEQUANTIZE"]:
        raise ValueError("not an int8 classifier ending in SOFTMAX -> DEQUANTIZE (a float file's softmax is "
                         "float already)")
    softmax, dequantize = graph.operators[-2:]
    (logits,), (quantised,) = softmax.inputs, softmax.outputs
    (out,) = dequantize.outputs
    if list(dequantize.inputs) != [quantised] or out not in list(graph.outputs):
        raise ValueError("the SOFTMAX's output is not what the DEQUANTIZE turns into the graph's output")
    # A float tensor for the dequantised logits, shaped (and resizable) as the output.
    floats = copy.deepcopy(graph.tensors[out])
    floats.name = b"logits_dequantized"
    floats.buffer = len(model.buffers)
    model.buffers.append(schema.BufferT())
    graph.tensors.append(floats)
    between = len(graph.tensors) - 1
    dequantize.inputs, dequantize.outputs = np.array([logits], np.int32), np.array([between], np.int32)
    softmax.inputs, softmax.outputs = np.array([between], np.int32), np.array([out], np.int32)
    graph.operators[-2:] = [dequantize, softmax]
    builder = flatbuffers.Builder(len(data) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.train.float_softmax", description=__doc__.splitlines()[0])
    p.add_argument("source", type=Path, help="an int8 face classifier (.tflite)")
    p.add_argument("out", type=Path, help="where the same classifier with a float softmax goes")
    args = p.parse_args(argv)
    try:
        args.out.write_bytes(float_softmax(args.source.read_bytes()))
    except ValueError as e:
        p.error(f"{args.source}: {e}")
    print(f"{args.source} -> {args.out}: {args.out.stat().st_size} bytes, softmax in float")
    return 0


if __name__ == "__main__":
    sys.exit(main())

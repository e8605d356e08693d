"""Read a DreamGym policy with numpy alone, and score an observation's candidate actions.

The policy is exported with
    npm run -s cli -- policy export FILE.dgp --format safetensors --out DIR
which writes DIR/model.safetensors (the weights) and DIR/config.json (the policy's card).

    python3 examples/read-policy.py DIR FEATURES.json

FEATURES.json holds one observation's feature rows as the policy builds them (src/policy/featurizer.ts):
{"state": {"indices": [...], "values": [...]}, "actions": [{"indices": [...], "values": [...]}, ...]}.
It prints the log-probabilities of the candidate actions, as JSON.
"""
import json
import struct
import sys

import numpy as np


def load_safetensors(path):
    """Every tensor of a safetensors file, by name: 8-byte header length, JSON header, raw data."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    header.pop("__metadata__", None)
    start = 8 + length
    tensors = {}
    for name, info in header.items():
        assert info["dtype"] == "F32", f"{name} is {info['dtype']}"
        begin, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data[start + begin : start + end], dtype="<f4").reshape(info["shape"])
    return tensors


def dense(row, width):
    x = np.zeros(width, dtype=np.float32)
    x[np.asarray(row["indices"], dtype=np.int64)] = row["values"]
    return x


def action_log_probs(w, state_row, action_rows):
    """The choice network of src/policy/network.ts: state encoder, join, score, softmax over candidates."""
    relu = lambda x: np.maximum(x, 0)
    s = dense(state_row, w["state/kernel"].shape[0])
    a = np.stack([dense(r, w["join/action_kernel"].shape[0]) for r in action_rows])
    hs = relu(s @ w["state/kernel"] + w["state/bias"])
    us = hs @ w["join/state_kernel"] + w["join/bias"]
    z1 = relu(a @ w["join/action_kernel"] + w["join/action_bias"] + us)
    z2 = relu(z1 @ w["score/hidden_kernel"] + w["score/hidden_bias"])
    relations = w["score/relation_kernel"].shape[0]
    logits = (z2 @ w["score/kernel"] + w["score/bias"])[:, 0] + (a[:, -relations:] @ w["score/relation_kernel"])[:, 0]
    logits = logits - logits.max()
    return logits - np.log(np.exp(logits).sum())


if __name__ == "__main__":
    directory, features_path = sys.argv[1], sys.argv[2]
    weights = load_safetensors(f"{directory}/model.safetensors")
    with open(f"{directory}/config.json") as f:
        card = json.load(f)
    with open(features_path) as f:
        features = json.load(f)
    scores = action_log_probs(weights, features["state"], features["actions"])
    print(json.dumps({"env": card["env"], "algorithm": card["algorithm"], "logProbs": [float(x) for x in scores]}))

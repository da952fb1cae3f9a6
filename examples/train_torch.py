"""Trains a small policy-value network in PyTorch on morne's self-play shards.

    morne selfplay --scenario duel --games 20 --out selfplay
    /usr/bin/python3 examples/train_torch.py selfplay --steps 200

The batches come from morne.read_shards as numpy arrays; torch.from_numpy takes them without a
copy. The policy loss is the cross-entropy with the search's target over the legal actions
(the others masked off), the value loss the squared error with the game's result.
"""
import argparse

import torch
from torch import nn

import morne

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("shards", nargs="+", help="shard files or folders")
parser.add_argument("--steps", type=int, default=200)
parser.add_argument("--batch", type=int, default=64)
args = parser.parse_args()

stream = morne.ShardStream(args.shards, seed=1)
planes, height, width = stream.shape
actions = morne.load_scenario(stream.scenario).num_distinct_actions
torch.manual_seed(1)
trunk = nn.Sequential(nn.Conv2d(planes, 32, 3, padding=1), nn.ReLU(),
                      nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.Flatten())
policy_head = nn.Linear(32 * height * width, actions)
value_head = nn.Sequential(nn.Linear(32 * height * width, 1), nn.Tanh())
model = nn.ModuleList([trunk, policy_head, value_head])
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step, batch in enumerate(morne.read_shards(args.shards, args.batch, batches=args.steps)):
    x = torch.from_numpy(batch["planes"])
    legal = torch.from_numpy(batch["legal"]).bool()
    features = trunk(x)
    logits = policy_head(features).masked_fill(~legal, -1e9)
    policy_loss = -(torch.from_numpy(batch["policy"]) * torch.log_softmax(logits, 1)).sum(1).mean()
    value_loss = ((value_head(features).squeeze(1) - torch.from_numpy(batch["value"])) ** 2).mean()
    loss = policy_loss + value_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0 or step == args.steps - 1:
        print(f"step {step:4d} policy {policy_loss.item():.3f} value {value_loss.item():.3f} "
              f"loss {loss.item():.3f}")

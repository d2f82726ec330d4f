"""Small stand-ins for model families the seed targets, for tests and examples (random weights).

- BertEncoder: token + position embeddings, N encoder layers (multi-head self-attention, GELU
  MLP, LayerNorm), as BERT-style encoders export: Gather, MatMul, Add, Softmax, Erf, LayerNorm's
  ReduceMean/Sub/Pow/Sqrt/Div pattern at opset 11.
- YoloStyle: a YOLOv5-shaped detector: Conv+BN+SiLU blocks, a C3-like residual block, SPPF
  max-pools, nearest upsampling with Concat (a small FPN), and a head that reshapes, permutes
  and decodes boxes with Sigmoid, over any input height/width divisible by 32.
"""
import math

import torch
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.heads = heads
        self.qkv = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(3))
        self.proj = nn.Linear(hidden, hidden)
        self.norm1 = nn.LayerNorm(hidden)
        self.fc1 = nn.Linear(hidden, intermediate)
        self.fc2 = nn.Linear(intermediate, hidden)
        self.norm2 = nn.LayerNorm(hidden)

    def forward(self, x):
        batch, seq, hidden = x.shape
        head_dim = hidden // self.heads
        q, k, v = (layer(x).view(batch, seq, self.heads, head_dim).transpose(1, 2) for layer in self.qkv)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(head_dim)
        context = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(batch, seq, hidden)
        x = self.norm1(x + self.proj(context))
        return self.norm2(x + self.fc2(nn.functional.gelu(self.fc1(x))))


class BertEncoder(nn.Module):
    def __init__(self, vocab=1000, hidden=128, heads=4, layers=2, intermediate=512, max_len=128):
        super().__init__()
        self.tokens = nn.Embedding(vocab, hidden)
        self.positions = nn.Embedding(max_len, hidden)
        self.norm = nn.LayerNorm(hidden)
        self.layers = nn.ModuleList(EncoderLayer(hidden, heads, intermediate) for _ in range(layers))

    def forward(self, input_ids):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        x = self.norm(self.tokens(input_ids) + self.positions(positions))
        for layer in self.layers:
            x = layer(x)
        return x


class BertBaseEncoder(nn.Module):
    """BERT-base's encoder stack on embeddings: 12 layers, hidden 768, 12 heads, GELU feed-forward of
    3072, input [batch, sequence, 768] (the benchmarks use sequence 512)."""

    def __init__(self):
        super().__init__()
        # Separate layers (nn.TransformerEncoder would copy one, and the exporter would store its
        # weights once): twelve layers' weights, as the real model has.
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072, activation="gelu", batch_first=True)
            for _ in range(12))

    def forward(self, hidden_states):
        for layer in self.layers:
            hidden_states = layer(hidden_states)
        return hidden_states


def conv_bn_silu(cin, cout, k=1, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, bias=False), nn.BatchNorm2d(cout), nn.SiLU())


class C3(nn.Module):
    def __init__(self, channels):
        super().__init__()
        half = channels // 2
        self.a = conv_bn_silu(channels, half)
        self.b = conv_bn_silu(channels, half)
        self.m = nn.Sequential(conv_bn_silu(half, half), conv_bn_silu(half, half, 3))
        self.out = conv_bn_silu(2 * half, channels)

    def forward(self, x):
        a = self.a(x)
        return self.out(torch.cat([a + self.m(a), self.b(x)], dim=1))


class SPPF(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.reduce = conv_bn_silu(channels, channels // 2)
        self.pool = nn.MaxPool2d(5, 1, 2)
        self.out = conv_bn_silu(channels * 2, channels)

    def forward(self, x):
        x = self.reduce(x)
        y1 = self.pool(x)
        y2 = self.pool(y1)
        return self.out(torch.cat([x, y1, y2, self.pool(y2)], dim=1))


class YoloStyle(nn.Module):
    def __init__(self, classes=8, anchors=3):
        super().__init__()
        self.outputs_per_anchor = classes + 5
        self.anchors = anchors
        self.stem = conv_bn_silu(3, 16, 3, 2)
        self.down = nn.ModuleList([conv_bn_silu(16, 32, 3, 2), conv_bn_silu(32, 64, 3, 2),
                                   conv_bn_silu(64, 128, 3, 2), conv_bn_silu(128, 256, 3, 2)])
        self.c3 = nn.ModuleList([C3(32), C3(64), C3(128), C3(256)])
        self.sppf = SPPF(256)
        self.lateral = conv_bn_silu(256, 128)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.merge = C3(256)
        self.heads = nn.ModuleList([nn.Conv2d(256, anchors * self.outputs_per_anchor, 1),
                                    nn.Conv2d(256, anchors * self.outputs_per_anchor, 1)])

    def decode(self, head, x, stride):
        batch, _, h, w = x.shape
        y = head(x).view(batch, self.anchors, self.outputs_per_anchor, h, w).permute(0, 1, 3, 4, 2).sigmoid()
        xy = y[..., 0:2] * 2 * stride
        wh = (y[..., 2:4] * 2) ** 2 * stride
        return torch.cat([xy, wh, y[..., 4:]], dim=-1).reshape(batch, -1, self.outputs_per_anchor)

    def forward(self, images):
        x = self.stem(images)
        features = []
        for down, c3 in zip(self.down, self.c3):
            x = c3(down(x))
            features.append(x)
        p5 = self.sppf(features[-1])
        lateral = self.lateral(p5)
        p4 = self.merge(torch.cat([self.up(lateral), features[-2]], dim=1))
        return torch.cat([self.decode(self.heads[0], p4, 16), self.decode(self.heads[1], p5, 32)], dim=1)

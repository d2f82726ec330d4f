#!/usr/bin/env python3
"""How much of a PNG screenshot is drawn on: prints the share of pixels that are not (near) white
and the number of distinct colours, and exits 1 when the page looks blank.

  png_ink.py SHOT.png [MIN_INK_SHARE] [MIN_COLOURS]      (defaults 0.02 and 8)

A headless-Chromium screenshot of a page that failed to render is one flat colour; a report is
text, tables and charts. Only the standard library (zlib): 8-bit RGB/RGBA, non-interlaced PNGs,
which is what Chromium writes.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    path = sys.argv[1]
    min_share = float(sys.argv[2]) if len(sys.argv) > 2 else 0.02
    min_colours = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    width, height, channels, rows = decode(path)
    ink, colours = 0, set()
    for line in rows:
        for x in range(0, width * channels, channels):
            pixel = line[x:x + 3]
            colours.add(pixel)
            if min(pixel) < 235:
                ink += 1
    share = ink / float(width * height)
    print(f"{path}: {width}x{height}, {share:.1%} of pixels drawn on, {len(colours)} colours")
    if share < min_share or len(colours) < min_colours:
        print(f"looks blank: need at least {min_share:.0%} drawn on and {min_colours} colours", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/ (small files, a few
KiB in all; committed, so that the fuzzers and the replay ctest start from the same seeds). Run it
again after changing it: `python3 tests/fuzz/make_corpus.py`. Deterministic, standard library only.

Every format is written here by hand (PNG through zlib, a tiny baseline JPEG encoder with DC and
one AC coefficient a block, BMP, TGA, PGM/PPM, GIF with an uncompressed-style LZW stream, tipsy),
plus slightly broken copies (bad CRC, cut short, lying sizes) so the error paths are seeded too.
Life seeds start with one byte choosing the reader (see life_pattern_fuzz.cpp).
"""
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    path = os.path.join(CORPUS, target, name)
    with open(path, "wb") as f:
        f.write(data)


def pixels(w, h, c):
    out = bytearray()
    for y in range(h):
        for x in range(w):
            for k in range(c):
                out.append((x * 37 + y * 11 + k * 80) & 0xFF)
    return bytes(out)


# ------------------------------------------------------------------------------------------------
# Images

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(w, h, colour_type, depth=8, extra=b"", raw=None):
    samples = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]
    if raw is None:
        row_bytes = (w * samples * depth + 7) // 8
        raw = b"".join(b"\x01" + pixels(row_bytes, 1, 1) for _ in range(h))  # filter Sub on every row
    ihdr = struct.pack(">IIBBBBB", w, h, depth, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra +
            png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def png_adam7(w, h):
    """8-bit grey, Adam7 interlaced: each pass's rows, filter None."""
    passes = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
    raw = b""
    for x0, y0, dx, dy in passes:
        pw, ph = len(range(x0, w, dx)), len(range(y0, h, dy))
        if pw and ph:
            raw += b"".join(b"\x00" + pixels(pw, 1, 1) for _ in range(ph))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 1)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw, 9)) +
            png_chunk(b"IEND", b""))


def bmp(w, h, bpp):
    row = (w * bpp // 8 + 3) // 4 * 4
    palette = b"".join(bytes((i, i, i, 0)) for i in range(256)) if bpp == 8 else b""
    data = b"".join(pixels(w * bpp // 8, 1, 1).ljust(row, b"\0") for _ in range(h))
    offset = 14 + 40 + len(palette)
    header = b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, bpp, 0, len(data), 2835, 2835, 256 if bpp == 8 else 0, 0)
    return header + info + palette + data


def tga(w, h, kind, bpp):
    header = struct.pack("<BBBHHBHHHHBB", 0, 0, kind, 0, 0, 0, 0, 0, w, h, bpp, 0x20)
    px = pixels(w, h, bpp // 8)
    if kind == 10:  # RLE: one raw packet a row
        row = w * bpp // 8
        px = b"".join(bytes((w - 1,)) + px[y * row:(y + 1) * row] for y in range(h))
    return header + px


class BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def bits(self, value, count):
        for i in range(count - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xFF:
                    self.out.append(0)  # byte stuffing
                self.acc = self.n = 0

    def flush(self):
        while self.n:
            self.bits(1, 1)
        return bytes(self.out)


def huffman_codes(counts, values):
    codes, code, k = {}, 0, 0
    for length in range(1, 17):
        for _ in range(counts[length - 1]):
            codes[values[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return codes


DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]  # the standard luminance DC table
DC_VALUES = list(range(12))
AC_COUNTS = [0, 2, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # EOB, 0/1, 0/2, 1/1, ZRL
AC_VALUES = [0x00, 0x01, 0x02, 0x11, 0xF0]


def jpeg(w, h, components):
    """Baseline JPEG, 1 (grey) or 3 components without subsampling: DC from the block's mean,
    AC[1] = +-1 on odd blocks, then EOB."""
    dc_codes, ac_codes = huffman_codes(DC_COUNTS, DC_VALUES), huffman_codes(AC_COUNTS, AC_VALUES)
    seg = lambda marker, data: b"\xFF" + bytes((marker,)) + struct.pack(">H", len(data) + 2) + data
    out = b"\xFF\xD8" + seg(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0")
    out += seg(0xDB, b"\x00" + bytes([2] * 64))
    sof = struct.pack(">BHHB", 8, h, w, components)
    for c in range(components):
        sof += bytes((c + 1, 0x11, 0))
    out += seg(0xC0, sof)
    out += seg(0xC4, b"\x00" + bytes(DC_COUNTS) + bytes(DC_VALUES))
    out += seg(0xC4, b"\x10" + bytes(AC_COUNTS) + bytes(AC_VALUES))
    sos = bytes((components,))
    for c in range(components):
        sos += bytes((c + 1, 0x00))
    out += seg(0xDA, sos + b"\x00\x3F\x00")
    bw = BitWriter()
    pred = [0] * components
    blocks = 0
    for by in range((h + 7) // 8):
        for bx in range((w + 7) // 8):
            for c in range(components):
                dc = ((bx * 40 + by * 25 + c * 60) % 200 - 100) // 2
                diff, pred[c] = dc - pred[c], dc
                size = abs(diff).bit_length()
                code, length = dc_codes[size]
                bw.bits(code, length)
                if size:
                    bw.bits(diff if diff > 0 else diff + (1 << size) - 1, size)
                if blocks % 2:
                    code, length = ac_codes[0x01]
                    bw.bits(code, length)
                    bw.bits(1, 1)
                code, length = ac_codes[0x00]
                bw.bits(code, length)
                blocks += 1
    return out + bw.flush() + b"\xFF\xD9"


def gif(w, h, frames=1):
    out = b"GIF89a" + struct.pack("<HHBBB", w, h, 0x81, 0, 0)  # global table of 4 colours
    out += bytes((0, 0, 0, 255, 0, 0, 0, 255, 0, 255, 255, 255))
    for f in range(frames):
        out += b"\x21\xF9\x04\x00\x0A\x00\x00\x00"  # graphic control extension
        out += b"\x2C" + struct.pack("<HHHHB", 0, 0, w, h, 0)
        # LZW, minimum code size 2 (clear 4, end 5, 3-bit codes): a clear code before every two
        # pixels, so the table never grows past 3 bits.
        codes = []
        px = [(x + y + f) % 4 for y in range(h) for x in range(w)]
        for i in range(0, len(px), 2):
            codes += [4] + px[i:i + 2]
        codes.append(5)
        acc = n = 0
        data = bytearray()
        for code in codes:
            acc |= code << n
            n += 3
            while n >= 8:
                data.append(acc & 0xFF)
                acc >>= 8
                n -= 8
        if n:
            data.append(acc)
        out += b"\x02"
        for i in range(0, len(data), 255):
            chunk = data[i:i + 255]
            out += bytes((len(chunk),)) + chunk
        out += b"\x00"
    return out + b"\x3B"


def images():
    t = "image_decode"
    write(t, "grey8x8.png", png(8, 8, 0))
    write(t, "rgb7x5.png", png(7, 5, 2))
    write(t, "rgba4x4.png", png(4, 4, 6))
    write(t, "grey-alpha3x3.png", png(3, 3, 4))
    write(t, "palette4x4.png", png(4, 4, 3, extra=png_chunk(b"PLTE", bytes(range(12))) + png_chunk(b"tRNS", b"\x80")))
    write(t, "grey1bit9x2.png", png(9, 2, 0, depth=1))
    write(t, "grey16bit2x2.png", png(2, 2, 0, depth=16))
    write(t, "interlaced.png", png_adam7(5, 5))
    good = png(5, 5, 2)
    bad_crc = bytearray(good)
    bad_crc[30] ^= 0xFF  # inside IHDR's data
    write(t, "bad-crc.png", bytes(bad_crc))
    write(t, "truncated.png", good[:-20])
    write(t, "apng.png", png(2, 2, 0, extra=png_chunk(b"acTL", struct.pack(">II", 2, 0))))
    write(t, "huge-header.png", png(30000, 30000, 0, raw=b"\0" * 10))
    write(t, "grey8x8.jpg", jpeg(8, 8, 1))
    write(t, "colour16x8.jpg", jpeg(16, 8, 3))
    write(t, "truncated.jpg", jpeg(16, 16, 1)[:-6])
    write(t, "grey8.bmp", bmp(5, 3, 8))
    write(t, "rgb24.bmp", bmp(4, 2, 24))
    write(t, "rgba32.bmp", bmp(2, 2, 32))
    write(t, "truncated.bmp", bmp(16, 16, 24)[:100])
    write(t, "rgb.tga", tga(3, 2, 2, 24))
    write(t, "grey.tga", tga(4, 2, 3, 8))
    write(t, "rgba-rle.tga", tga(3, 2, 10, 32))
    write(t, "grey.pgm", b"P5\n# a comment\n4 3\n255\n" + pixels(4, 3, 1))
    write(t, "rgb.ppm", b"P6 2 2 255\n" + pixels(2, 2, 3))
    write(t, "truncated.pgm", b"P5\n64 64\n255\n" + pixels(8, 1, 1))
    write(t, "plain.pgm", b"P2\n2 1\n255\n0 255\n")
    write(t, "still.gif", gif(4, 3))
    write(t, "animated.gif", gif(2, 2, frames=2))
    write(t, "truncated.gif", gif(4, 4)[:-8])


# ------------------------------------------------------------------------------------------------
# Life patterns: selector byte (0 .rle hint, 1 .cells hint, 2 no hint, 3 parse_rle, 4 parse_cells)

def life():
    t = "life_pattern"
    for sel, name in ((0, "glider.rle"), (2, "r-pentomino.rle"), (3, "gosper-glider-gun.rle")):
        with open(os.path.join(ROOT, "assets", "patterns", name), "rb") as f:
            write(t, f"{sel}-{name}", bytes((sel,)) + f.read())
    for sel, name in ((1, "pulsar.cells"), (2, "pentadecathlon.cells")):
        with open(os.path.join(ROOT, "assets", "patterns", name), "rb") as f:
            write(t, f"{sel}-{name}", bytes((sel,)) + f.read())
    seeds = {
        "0-header-lines.rle": (0, "#N name\n#O author\n#C comment\n#c other\n#R -3 4\n#r B36/S23\n"
                                  "x = 5, y = 3, rule = B36/S23\n2bo$obo$b2o!\n"),
        "3-crlf.rle": (3, "#N crlf\r\nx = 3, y = 1\r\n3o!\r\n"),
        "3-multiline.rle": (3, "x=12,y=2,rule=b3/s23\n12o$\n5b3o!\n"),
        "3-empty-pattern.rle": (3, "x = 0, y = 0, rule = B3/S23\n!\n"),
        "3-sb-rule.rle": (3, "x = 2, y = 2, rule = 23/3\n2o$2o!\n"),
        "3-bad-number.rle": (3, "x = 3, y = 3\n99999999999999999999o!\n"),
        "3-dangling.rle": (3, "x = 3, y = 3\n3o$3!\n"),
        "3-too-wide.rle": (3, "x = 2, y = 1\n5o!\n"),
        "3-multistate.rle": (3, "x = 3, y = 1, rule = B3/S23\nA2B!\n"),
        "3-no-bang.rle": (3, "x = 3, y = 1\n3o\n"),
        "3-too-many-cells.rle": (3, "x = 65536, y = 65536\n!\n"),
        "3-edge-too-long.rle": (3, "x = 65537, y = 1\n!\n"),
        "4-named.cells": (4, "!Name: blinker\n!a comment\n...\nOOO\n...\n"),
        "4-stars.cells": (4, "*.*\n.*.\n"),
        "4-bad-char.cells": (4, "!Name: x\n.O.\n.X.\n"),
        "2-life106.lif": (2, "#Life 1.06\n0 0\n1 1\n"),
        "2-bom.rle": (2, "\ufeffx = 1, y = 1\no!\n"),
    }
    for name, (sel, text) in seeds.items():
        write(t, name, bytes((sel,)) + text.encode())


# ------------------------------------------------------------------------------------------------
# N-body bodies (every input goes to parse_csv and to parse_tipsy)

def tipsy(dark, star=(), gas=0, time=0.5, ndim=3, trailing=b""):
    n = gas + len(dark) + len(star)
    out = struct.pack("<diiiiii", time, n, ndim, gas, len(dark), len(star), 0)
    out += b"".join(struct.pack("<12f", *([0.0] * 12)) for _ in range(gas))
    for i, b in enumerate(dark):
        out += struct.pack("<8fi", *b, 0.01, i)
    for i, b in enumerate(star):
        out += struct.pack("<10fi", *b, 1.0, 0.01, i)
    return out + trailing


def bodies():
    t = "nbody_bodies"
    write(t, "header.csv", "# gpulab nbody G=1 softening=0.05 dt=0.005 step=42\nx,y,z,vx,vy,vz,m\n"
                           "-0.5,0,0,0,-0.5,0,0.5\n0.5,0,0,0,0.5,0,0.5\n")
    write(t, "no-header.csv", "x,y,z,vx,vy,vz,m\n1e-3,+2,-3.5e+1,0,0,0,1\n")
    write(t, "crlf.csv", "# gpulab nbody step=7 dt=0.01 G=2 softening=0\r\nx,y,z,vx,vy,vz,m\r\n0,1.25,-3e-2,0.125,0,0,0\r\n"
                         "1,1,1,1,1,1,1e-30\r\n\r\n")
    write(t, "bad-number.csv", "x,y,z,vx,vy,vz,m\n1,2,3,4,5,six,7\n")
    write(t, "bad-fields.csv", "x,y,z,vx,vy,vz,m\n1,2,3\n")
    write(t, "negative-mass.csv", "x,y,z,vx,vy,vz,m\n0,0,0,0,0,0,-1\n")
    write(t, "bad-header.csv", "# gpulab nbody G=1 softening=-1 dt=0 step=x\nx,y,z,vx,vy,vz,m\n0,0,0,0,0,0,1\n")
    write(t, "overflow.csv", "x,y,z,vx,vy,vz,m\n1e39,0,0,0,0,0,1\n")
    write(t, "two-dark.tipsy", tipsy([(0.5, -1, 0, 0, 0, -0.5, 0), (0.5, 1, 0, 0, 0, 0.5, 0)]))
    write(t, "gas-dark-star.tipsy", tipsy([(1, 0, 0, 0, 0, 0, 0)], star=[(0.25, 1, 2, 3, 0, 0, 0, 0)], gas=1))
    write(t, "bad-ndim.tipsy", tipsy([(1, 0, 0, 0, 0, 0, 0)], ndim=2))
    write(t, "truncated.tipsy", tipsy([(1, 0, 0, 0, 0, 0, 0)] * 2)[:-10])
    write(t, "trailing.tipsy", tipsy([(1, 0, 0, 0, 0, 0, 0)], trailing=b"\0" * 4))
    write(t, "nan.tipsy", tipsy([(1, float("nan"), 0, 0, 0, 0, 0)]))


# ------------------------------------------------------------------------------------------------
# Command lines: one argument a line

def command_lines():
    t = "command_line"
    lines = {
        "defaults.txt": [],
        "life-headless.txt": ["--headless", "--demo", "life", "--frames", "3", "--screenshot", "x.png", "--size",
                              "640x360", "--variant", "cpu-lut", "--grid", "300x200", "--seed", "9", "--rule", "B36/S23"],
        "life-pattern.txt": ["--demo=life", "--pattern", "missing.rle", "--density", "0.5"],
        "life-batch.txt": ["--headless", "--steps", "10", "--save-pattern", "out.rle", "--grid", "64x64"],
        "life-bad-grid.txt": ["--grid", "12xx"],
        "nbody.txt": ["--headless", "--demo", "nbody", "--bodies", "256", "--init", "galaxies", "--dt", "0.01",
                      "--softening", "0.1", "--gravity", "2", "--variant", "cpu", "--steps", "5", "--save-bodies", "o.csv"],
        "nbody-load.txt": ["--demo", "nbody", "--load-bodies", "missing.tipsy", "--init", "disk"],
        "histeq.txt": ["--headless", "--demo", "histeq", "--image", "missing.png", "--mode", "stretch",
                       "--per-channel", "--variant", "hist-cpu", "--save-image", "o.png"],
        "histeq-blocks.txt": ["--demo", "histeq", "--variant", "hist-shared-vec", "--block", "histogram=256",
                              "--block", "512"],
        "rotate.txt": ["--demo", "rotate", "--angle", "30", "--scale", "1.5", "--spin", "0", "--filter", "point",
                       "--address", "wrap", "--normalized", "off", "--read-mode", "element", "--output", "pbo"],
        "bench.txt": ["bench", "--demo", "nbody", "--size", "1024", "--size", "64x64", "--variant", "cpu",
                      "--repeats", "3", "--steps", "2", "--all-blocks", "--json", "o.json"],
        "list.txt": ["--list"],
        "help.txt": ["--help"],
        "unknown.txt": ["--no-such-flag", "--bodies", "3"],
        "other-demo-option.txt": ["--demo", "life", "--bodies", "3"],
        "bad-block.txt": ["--variant", "gpu-shared", "--block", "ghost=2000"],
    }
    for name, args in lines.items():
        write(t, name, "\n".join(args))
    write(t, "nul-separated.bin", b"\0".join([b"--demo", b"rotate", b"--angle", b"-45"]))


# ------------------------------------------------------------------------------------------------
# Lesson scripts (the target skips an input with a word naming a file of the machine)

def lessons():
    t = "lesson_script"
    write(t, "life.toml", 'title = "Game of Life"\n[[step]]\ntitle = "The CPU reference"\ndemo = "life"\n'
                          'variant = "cpu-naive"\nparams = { grid = "64x48", rule = "B3/S23", density = 0.3 }\n'
                          'caption = "One cell at a time."\nnotes = "Start here."\n'
                          '[[step]]\nvariant = ["cpu-naive", "cpu-lut"]\nladder = true\ncode = true\n')
    write(t, "nbody.toml", 'title = "N-body"\n[[step]]\ndemo = "nbody"\nvariant = "cpu"\n'
                           'params = { bodies = 64, dt = 0.01, softening = 0.1, init = "disk", seed = 3 }\n'
                           '[[step]]\ndemo = "matrix"\nparams = { op = "multiply", m = 8, n = 9, k = 10 }\n')
    write(t, "histeq.toml", 'title = "Histogram"\n[[step]]\ndemo = "histeq"\n[step.params]\nmode = "stretch"\n'
                            'per-channel = true\n[[step]]\ndemo = "rotate"\nblock = 16\n'
                            'params = { angle = 30, filter = "point" }\n')
    write(t, "bad-nesting.toml", 'title = "t"\n[[step]]\ndemo = "life"\n' + ".".join(["a"] * 80) + ' = 1\n')
    write(t, "bad-caption.toml", 'title = "t"\n[[step]]\ndemo = "life"\ncaption = "' + "x" * 1001 + '"\n')
    write(t, "bad-number.toml", 'title = "t"\n[[step]]\ndemo = "life"\nparams = { grid = "4294967306x10", '
                                'density = nan }\n')
    write(t, "bad-toml.toml", 'title = "t"\n[[step]]\ndemo = \n')
    write(t, "unknown-key.toml", 'title = "t"\nauthor = "\\u001b[2J"\n[[step]]\ndemo = "life"\n')


# ------------------------------------------------------------------------------------------------
# Settings files

def settings():
    t = "settings_file"
    write(t, "written.toml", '# gpulab settings\nui_scale = 1.5\ntheme = "light"\nhud = true\n'
                             'last_demo = "nbody"\nwindow_width = 1280\nwindow_height = 720\n')
    write(t, "comments.toml", '# mine\ntheme   = "dark"   # for the lab\nfont_size = 20\n\n[extra]\nx = [1, 2]\n')
    write(t, "rejected.toml", 'ui_scale = 9.5\nwindow_width = 10\nhud = "yes"\nlast_demo = "../x"\n')
    write(t, "crlf-bom.toml", b"\xEF\xBB\xBFtheme = 'light'\r\nhud = false\r\n")
    write(t, "typo.toml", "hud = tru\n")
    write(t, "big-integer.toml", "window_width = 123456789012345678901\n")
    write(t, "deep.toml", ".".join(["a"] * 100) + " = 1\n")
    write(t, "tables.toml", "theme.x = 1\nhud = [true]\n[ui_scale]\n")
    write(t, "multiline.toml", 'theme = """\nlight"""\nlast_demo = ' + "'" * 3 + "life" + "'" * 3 + "\n")


if __name__ == "__main__":
    for target in ("image_decode", "life_pattern", "nbody_bodies", "command_line", "lesson_script",
                   "settings_file"):
        shutil.rmtree(os.path.join(CORPUS, target), ignore_errors=True)
        os.makedirs(os.path.join(CORPUS, target))
    images()
    life()
    bodies()
    command_lines()
    lessons()
    settings()

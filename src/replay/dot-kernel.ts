/**
 * The dot products under exact top-k retrieval, as a WebAssembly SIMD kernel assembled here from a
 * few dozen instructions (no build step, no binary in the repository), with the same loop in plain
 * JavaScript where WebAssembly SIMD is missing. Scores are f32 either way; the two agree to float
 * rounding (tests/unit/replay/dot-kernel.test.ts).
 *
 * Why a kernel: a JavaScript loop does one multiply-add at a time (about 1 GMAC/s here), so a query
 * over 100K stored 128-wide vectors took 12.5 ms; f32x4 lanes with two accumulators do eight.
 *
 * Layout (one linear memory, float32): the stored vectors row after row from byte 0, then per call
 * the queries and the scores (`scratch`). `scores(queries, nq, dim, rows, rowCount, out)` writes
 * out[q · rowCount + r] = queries[q] · rows[r] for every query and row; pointers are byte offsets
 * (multiples of 16), dim a multiple of 8 for the SIMD kernel (any for the JavaScript one).
 */

const PAGE = 65536;

/** A memory of float32 vectors that grows in place, and the kernel that scores queries against them. */
export interface DotKernel {
  readonly kind: 'wasm-simd' | 'js';
  /** The memory as floats (a new view after every `reserve`). */
  floats(): Float32Array;
  /** Make the memory at least `bytes` long (keeping what it holds). */
  reserve(bytes: number): void;
  scores(queries: number, nq: number, dim: number, rows: number, rowCount: number, out: number): void;
}

// --- a minimal assembler for the one function --------------------------------------------------

const I32 = 0x7f;
const V128 = 0x7b;

function leb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const name = (s: string): number[] => [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];

// Instructions.
const get = (i: number) => [0x20, ...leb(i)];
const set = (i: number) => [0x21, ...leb(i)];
const tee = (i: number) => [0x22, ...leb(i)];
const i32 = (n: number) => [0x41, ...sleb(n)];
const I32_ADD = [0x6a];
const I32_MUL = [0x6c];
const I32_LT_U = [0x49];
const I32_GE_U = [0x4f];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, ...leb(depth)];
const V128_LOAD = [0xfd, 0x00, 0x04, 0x00]; // align 2^4, offset 0
const V128_ZERO = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
const F32X4_ADD = [0xfd, ...leb(228)];
const F32X4_MUL = [0xfd, ...leb(230)];
const lane = (i: number) => [0xfd, ...leb(31), i]; // f32x4.extract_lane
const F32_ADD = [0x92];
const F32_STORE = [0x38, 0x02, 0x00]; // align 2^2, offset 0

/** for (v = from; v < limit; v += step) body — `limit` and `step` are instruction lists. */
function forLoop(v: number, from: number[], limit: number[], step: number[], body: number[]): number[] {
  return [...from, ...set(v), ...BLOCK, ...get(v), ...limit, ...I32_GE_U, ...brIf(0), ...LOOP, ...body, ...get(v), ...step, ...I32_ADD, ...tee(v), ...limit, ...I32_LT_U, ...brIf(0), ...END, ...END];
}

function kernelModule(): Uint8Array<ArrayBuffer> {
  // Parameters: 0 queries, 1 nq, 2 dim, 3 rows, 4 rowCount, 5 out (byte offsets; counts).
  // Locals: 6 r, 7 q, 8 d, 9 rowPtr, 10 qPtr, 11 rowBytes, 12 acc0, 13 acc1.
  const [Q, NQ, DIM, ROWS, COUNT, OUT, R, QI, D, ROWP, QP, BYTES, A0, A1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const mac = (acc: number, at: number) => [...get(acc), ...get(ROWP), ...get(D), ...I32_ADD, ...i32(at), ...I32_ADD, ...V128_LOAD, ...get(QP), ...get(D), ...I32_ADD, ...i32(at), ...I32_ADD, ...V128_LOAD, ...F32X4_MUL, ...F32X4_ADD, ...set(acc)];
  const perQuery = [
    ...get(Q), ...get(QI), ...get(BYTES), ...I32_MUL, ...I32_ADD, ...set(QP),
    ...V128_ZERO, ...set(A0), ...V128_ZERO, ...set(A1),
    // Two accumulators, 8 floats a turn: the multiply-adds of one overlap those of the other.
    ...forLoop(D, i32(0), get(BYTES), i32(32), [...mac(A0, 0), ...mac(A1, 16)]),
    // out[q · rowCount + r] = the lanes' sum
    ...get(OUT), ...get(QI), ...get(COUNT), ...I32_MUL, ...get(R), ...I32_ADD, ...i32(4), ...I32_MUL, ...I32_ADD,
    ...get(A0), ...get(A1), ...F32X4_ADD, ...tee(A0), ...lane(0), ...get(A0), ...lane(1), ...F32_ADD, ...get(A0), ...lane(2), ...F32_ADD, ...get(A0), ...lane(3), ...F32_ADD,
    ...F32_STORE,
  ];
  const perRow = [...get(ROWS), ...get(R), ...get(BYTES), ...I32_MUL, ...I32_ADD, ...set(ROWP), ...forLoop(QI, i32(0), get(NQ), i32(1), perQuery)];
  const body = [...get(DIM), ...i32(4), ...I32_MUL, ...set(BYTES), ...forLoop(R, i32(0), get(COUNT), i32(1), perRow), ...END];
  const locals = vec([[...leb(6), I32], [...leb(2), V128]]);
  const code = [...locals, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec(new Array(6).fill([I32])), ...vec([])]])),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...leb(1)]])),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('scores'), 0x00, 0]])),
    ...section(10, vec([[...leb(code.length), ...code]])),
  ]);
}

class WasmKernel implements DotKernel {
  readonly kind = 'wasm-simd';
  private view: Float32Array;
  /** The memory's size, kept here: reading `memory.buffer` on every add was most of an add's cost. */
  private bytes: number;
  constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly run: (queries: number, nq: number, dim: number, rows: number, rowCount: number, out: number) => void,
  ) {
    this.view = new Float32Array(memory.buffer);
    this.bytes = memory.buffer.byteLength;
  }
  floats(): Float32Array {
    return this.view;
  }
  reserve(bytes: number): void {
    if (bytes <= this.bytes) return;
    // At least double: growing may copy the memory, so a growing index pays that copy a logarithmic number of times.
    this.memory.grow(Math.ceil(Math.max(bytes - this.bytes, this.bytes) / PAGE));
    this.view = new Float32Array(this.memory.buffer);
    this.bytes = this.memory.buffer.byteLength;
  }
  scores(queries: number, nq: number, dim: number, rows: number, rowCount: number, out: number): void {
    this.run(queries, nq, dim, rows, rowCount, out);
  }
}

/**
 * x[xAt …] · y[yAt …] over `dim` floats, summed in float64 with four accumulators: the scan the
 * index has always ranked by (VectorIndex re-scores its candidates with it), and the JavaScript
 * kernel's loop.
 */
export function dot64(x: Float32Array, xAt: number, y: Float32Array, yAt: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dim; d += 4) {
    s0 += (x[xAt + d] as number) * (y[yAt + d] as number);
    s1 += (x[xAt + d + 1] as number) * (y[yAt + d + 1] as number);
    s2 += (x[xAt + d + 2] as number) * (y[yAt + d + 2] as number);
    s3 += (x[xAt + d + 3] as number) * (y[yAt + d + 3] as number);
  }
  for (; d < dim; d++) s0 += (x[xAt + d] as number) * (y[yAt + d] as number);
  return s0 + s1 + s2 + s3;
}

/** The same loop in JavaScript (dot64), over a buffer that is copied as it grows. */
class JsKernel implements DotKernel {
  readonly kind = 'js';
  private view = new Float32Array(PAGE / 4);
  floats(): Float32Array {
    return this.view;
  }
  reserve(bytes: number): void {
    if (bytes <= this.view.byteLength) return;
    const next = new Float32Array(Math.ceil(Math.max(bytes, this.view.byteLength * 2) / PAGE) * (PAGE / 4));
    next.set(this.view);
    this.view = next;
  }
  scores(queries: number, nq: number, dim: number, rows: number, rowCount: number, out: number): void {
    const m = this.view;
    const q0 = queries >> 2;
    const r0 = rows >> 2;
    const o0 = out >> 2;
    for (let r = 0; r < rowCount; r++) {
      const base = r0 + r * dim;
      for (let qi = 0; qi < nq; qi++) {
        const qb = q0 + qi * dim;
        m[o0 + qi * rowCount + r] = dot64(m, base, m, qb, dim);
      }
    }
  }
}

let compiled: WebAssembly.Module | null | undefined;

/** The SIMD kernel where this runtime validates it, else the JavaScript one (`prefer: 'js'` forces it). */
export function createDotKernel(prefer: 'auto' | 'js' = 'auto'): DotKernel {
  if (prefer === 'auto') {
    if (compiled === undefined) {
      const bytes = kernelModule();
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    }
    if (compiled) {
      const memory = new WebAssembly.Memory({ initial: 1 });
      const instance = new WebAssembly.Instance(compiled, { env: { memory } });
      return new WasmKernel(memory, instance.exports['scores'] as (...args: number[]) => void);
    }
  }
  return new JsKernel();
}

/**
 * AMF0, the encoding of RTMP's commands and metadata. Decoding is strict and bounded: anything malformed,
 * truncated, nested too deep, holding more values or properties than the caller allows, or of a type RTMP
 * publishers never send is an `Amf0Error`, which the connection turns into a refused session — never an
 * exception that escapes it. The bounds keep a message's decoding to microseconds: a 64 KiB message of
 * thousands of tiny properties is refused after the first few hundred, not built into an object.
 */

export class Amf0Error extends Error {
  override name = "Amf0Error";
}

/** An ECMA array (an object with a length hint), as onMetaData carries it; decoded as a plain object. */
export class Amf0EcmaArray {
  constructor(readonly entries: Amf0Object) {}
}

export type Amf0Object = { [key: string]: Amf0Value };
export type Amf0Value = number | boolean | string | null | undefined | Date | Amf0Object | Amf0EcmaArray | Amf0Value[];

const NUMBER = 0x00;
const BOOLEAN = 0x01;
const STRING = 0x02;
const OBJECT = 0x03;
const NULL = 0x05;
const UNDEFINED = 0x06;
const ECMA_ARRAY = 0x08;
const OBJECT_END = 0x09;
const STRICT_ARRAY = 0x0a;
const DATE = 0x0b;
const LONG_STRING = 0x0c;

const MAX_DEPTH = 16;

/** How much one decode may build: every value counts (an object's properties each count as one). */
export interface Amf0Bounds {
  /** Values in the whole message, nested ones and object properties included. */
  maxValues: number;
  /** Properties of one object or ECMA array, items of one strict array. */
  maxProperties: number;
}

/** Far above what any publisher sends (OBS's connect object has 10 properties, its onMetaData 20). */
export const DEFAULT_AMF0_BOUNDS: Amf0Bounds = { maxValues: 4096, maxProperties: 1024 };
const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Encoder = new TextEncoder();

class Reader {
  offset = 0;
  private readonly view: DataView;
  private valuesLeft: number;
  constructor(
    private readonly bytes: Uint8Array,
    readonly bounds: Amf0Bounds,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.valuesLeft = bounds.maxValues;
  }
  /** Counts one more value against the message's bound. */
  value(): void {
    if (--this.valuesLeft < 0) throw new Amf0Error(`AMF0 message holds more than ${this.bounds.maxValues} values`);
  }
  get remaining(): number {
    return this.bytes.length - this.offset;
  }
  need(n: number): void {
    if (n > this.remaining) throw new Amf0Error(`truncated AMF0 value (needs ${n} bytes, ${this.remaining} left)`);
  }
  u8(): number {
    this.need(1);
    return this.bytes[this.offset++]!;
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.offset);
    this.offset += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset);
    this.offset += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.offset);
    this.offset += 8;
    return v;
  }
  utf8(length: number): string {
    this.need(length);
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    try {
      return utf8.decode(slice);
    } catch {
      throw new Amf0Error("AMF0 string is not valid UTF-8");
    }
  }
}

/** Every value in `bytes`, in order (a command is a sequence: name, transaction id, object, arguments). */
export function decodeAmf0(bytes: Uint8Array, bounds: Amf0Bounds = DEFAULT_AMF0_BOUNDS): Amf0Value[] {
  const reader = new Reader(bytes, bounds);
  const values: Amf0Value[] = [];
  while (reader.remaining > 0) values.push(readValue(reader, 0));
  return values;
}

/**
 * The first value of `bytes` when it is a short string (a command's or data message's name), without
 * decoding the rest; null otherwise. What a message is decides whether it is worth decoding at all.
 */
export function peekName(bytes: Uint8Array, maxLength = 64): string | null {
  if (bytes.length < 3 || bytes[0] !== STRING) return null;
  const length = (bytes[1]! << 8) | bytes[2]!;
  if (length > maxLength || 3 + length > bytes.length) return null;
  try {
    return utf8.decode(bytes.subarray(3, 3 + length));
  } catch {
    return null;
  }
}

function readValue(reader: Reader, depth: number): Amf0Value {
  if (depth > MAX_DEPTH) throw new Amf0Error("AMF0 value nested too deep");
  reader.value();
  const marker = reader.u8();
  switch (marker) {
    case NUMBER:
      return reader.f64();
    case BOOLEAN:
      return reader.u8() !== 0;
    case STRING:
      return reader.utf8(reader.u16());
    case LONG_STRING:
      return reader.utf8(reader.u32());
    case OBJECT:
      return readProperties(reader, depth);
    case ECMA_ARRAY:
      reader.u32(); // a length hint only: the properties end with the object-end marker like an object's
      return readProperties(reader, depth);
    case NULL:
      return null;
    case UNDEFINED:
      return undefined;
    case STRICT_ARRAY: {
      const count = reader.u32();
      if (count > reader.remaining) throw new Amf0Error("AMF0 strict array longer than its message");
      if (count > reader.bounds.maxProperties) throw new Amf0Error(`AMF0 strict array of more than ${reader.bounds.maxProperties} items`);
      const items: Amf0Value[] = [];
      for (let i = 0; i < count; i++) items.push(readValue(reader, depth + 1));
      return items;
    }
    case DATE: {
      const ms = reader.f64();
      reader.u16(); // time zone, reserved as 0
      return new Date(ms);
    }
    case OBJECT_END:
      throw new Amf0Error("AMF0 object end outside an object");
    default:
      throw new Amf0Error(`unsupported AMF0 type 0x${marker.toString(16)}`);
  }
}

function readProperties(reader: Reader, depth: number): Amf0Object {
  // No prototype: a key named __proto__ or constructor is only data.
  const object = Object.create(null) as Amf0Object;
  for (let count = 0; ; count++) {
    const key = reader.utf8(reader.u16());
    if (key === "") {
      if (reader.u8() !== OBJECT_END) throw new Amf0Error("AMF0 empty property name without object end");
      return object;
    }
    if (count >= reader.bounds.maxProperties) throw new Amf0Error(`AMF0 object of more than ${reader.bounds.maxProperties} properties`);
    object[key] = readValue(reader, depth + 1);
  }
}

/** The properties of an object or ECMA array; null for any other value. */
export function asObject(value: Amf0Value): Amf0Object | null {
  if (value instanceof Amf0EcmaArray) return value.entries;
  return value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) ? value : null;
}

/** The values encoded one after another. Plain objects become AMF0 objects; arrays strict arrays. */
export function encodeAmf0(values: Amf0Value[]): Uint8Array {
  const parts: number[] = [];
  for (const value of values) writeValue(parts, value, 0);
  return Uint8Array.from(parts);
}

function writeValue(out: number[], value: Amf0Value, depth: number): void {
  if (depth > MAX_DEPTH) throw new Amf0Error("AMF0 value nested too deep");
  if (value === null) out.push(NULL);
  else if (value === undefined) out.push(UNDEFINED);
  else if (typeof value === "number") {
    out.push(NUMBER);
    writeF64(out, value);
  } else if (typeof value === "boolean") out.push(BOOLEAN, value ? 1 : 0);
  else if (typeof value === "string") {
    const bytes = utf8Encoder.encode(value);
    if (bytes.length > 0xffff) {
      out.push(LONG_STRING);
      writeU32(out, bytes.length);
    } else {
      out.push(STRING, bytes.length >> 8, bytes.length & 0xff);
    }
    for (const b of bytes) out.push(b);
  } else if (value instanceof Date) {
    out.push(DATE);
    writeF64(out, value.getTime());
    out.push(0, 0);
  } else if (Array.isArray(value)) {
    out.push(STRICT_ARRAY);
    writeU32(out, value.length);
    for (const item of value) writeValue(out, item, depth + 1);
  } else if (value instanceof Amf0EcmaArray) {
    out.push(ECMA_ARRAY);
    writeU32(out, Object.keys(value.entries).length);
    writeProperties(out, value.entries, depth);
  } else {
    out.push(OBJECT);
    writeProperties(out, value, depth);
  }
}

function writeProperties(out: number[], object: Amf0Object, depth: number): void {
  for (const [key, item] of Object.entries(object)) {
    const bytes = utf8Encoder.encode(key);
    if (bytes.length === 0 || bytes.length > 0xffff) throw new Amf0Error("AMF0 property name must be 1..65535 bytes");
    out.push(bytes.length >> 8, bytes.length & 0xff);
    for (const b of bytes) out.push(b);
    writeValue(out, item, depth + 1);
  }
  out.push(0, 0, OBJECT_END);
}

function writeF64(out: number[], value: number): void {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value);
  for (const b of bytes) out.push(b);
}

function writeU32(out: number[], value: number): void {
  out.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}

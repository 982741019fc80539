import dgram from "node:dgram";

/**
 * A tiny authoritative DNS server for tests (UDP only): answers TXT and MX questions from in-memory maps
 * the test controls, NXDOMAIN for names it does not hold. Just enough for node:dns Resolver; the
 * packet is parsed and built by hand (RFC 1035 §4) so no dependency is needed.
 */
export interface TestDnsServer {
  port: number;
  /** Replaces the TXT records of a name (each record a string; long strings are split into 255-byte chunks). */
  setTxt(name: string, records: string[]): void;
  /** Replaces the MX records of a name (inbound domains' checks). */
  setMx(name: string, records: MxRecord[]): void;
  /** Forgets a name: it answers NXDOMAIN again. */
  remove(name: string): void;
  close(): Promise<void>;
}

export interface MxRecord {
  priority: number;
  exchange: string;
}

const TYPE_TXT = 16;
const TYPE_MX = 15;
const RCODE_NXDOMAIN = 3;
const RCODE_FORMERR = 1;

export async function startDnsServer(options: { port?: number; host?: string } = {}): Promise<TestDnsServer> {
  const host = options.host ?? "127.0.0.1";
  const zone = new Map<string, string[]>();
  const mx = new Map<string, MxRecord[]>();
  const socket = dgram.createSocket("udp4");
  socket.on("message", (query, peer) => {
    const answer = respond(query, zone, mx);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", (error: NodeJS.ErrnoException) => {
      socket.close();
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `The test DNS server cannot listen on ${host}:${options.port}: the port is already in use (another test run still holding it?). Stop that process or choose another port.`,
            )
          : error,
      );
    });
    socket.bind(options.port ?? 0, host, () => resolve());
  });
  return {
    port: socket.address().port,
    setTxt: (name, records) => zone.set(normalize(name), records),
    setMx: (name, records) => mx.set(normalize(name), records),
    remove: (name) => {
      zone.delete(normalize(name));
      mx.delete(normalize(name));
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** Builds the reply to one query packet; null for garbage too short to answer. */
export function respond(
  query: Buffer,
  zone: Map<string, string[]>,
  mx: Map<string, MxRecord[]> = new Map(),
): Buffer | null {
  if (query.length < 12) return null;
  const questionCount = query.readUInt16BE(4);
  const parsed = questionCount === 1 ? readQuestion(query, 12) : null;
  if (!parsed) return header(query, RCODE_FORMERR, 0, 0);
  const { name, type, end } = parsed;
  const question = query.subarray(12, end);
  const records = zone.get(name);
  const exchanges = mx.get(name);
  if (!records && !exchanges) return Buffer.concat([header(query, RCODE_NXDOMAIN, 1, 0), question]);
  const answers =
    type === TYPE_TXT ? (records ?? []).map(txtAnswer) : type === TYPE_MX ? (exchanges ?? []).map(mxAnswer) : [];
  return Buffer.concat([header(query, 0, 1, answers.length), question, ...answers]);
}

function header(query: Buffer, rcode: number, questions: number, answers: number): Buffer {
  const out = Buffer.alloc(12);
  query.copy(out, 0, 0, 2); // the id
  const recursionDesired = query[2] & 0x01;
  out[2] = 0x80 | 0x04 | recursionDesired; // QR=1 (a response), AA=1 (authoritative), opcode 0
  out[3] = rcode & 0x0f;
  out.writeUInt16BE(questions, 4);
  out.writeUInt16BE(answers, 6);
  return out;
}

function readQuestion(packet: Buffer, offset: number): { name: string; type: number; end: number } | null {
  const labels: string[] = [];
  let position = offset;
  while (position < packet.length) {
    const length = packet[position];
    if (length === 0) break;
    if (length > 63 || position + 1 + length > packet.length) return null; // compression never appears in a question
    labels.push(packet.toString("latin1", position + 1, position + 1 + length));
    position += 1 + length;
  }
  if (position + 5 > packet.length) return null;
  return { name: normalize(labels.join(".")), type: packet.readUInt16BE(position + 1), end: position + 5 };
}

function txtAnswer(record: string): Buffer {
  const bytes = Buffer.from(record, "utf8");
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length || start === 0; start += 255) {
    const chunk = bytes.subarray(start, start + 255);
    chunks.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  const data = Buffer.concat(chunks);
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // a pointer to the name in the question
  fixed.writeUInt16BE(TYPE_TXT, 2);
  fixed.writeUInt16BE(1, 4); // class IN
  fixed.writeUInt32BE(60, 6); // TTL
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}

function mxAnswer(record: MxRecord): Buffer {
  const labels = record.exchange.replace(/\.$/, "").split(".");
  const name = Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "latin1")])),
    Buffer.from([0]),
  ]);
  const fixed = Buffer.alloc(14);
  fixed.writeUInt16BE(0xc00c, 0); // a pointer to the name in the question
  fixed.writeUInt16BE(TYPE_MX, 2);
  fixed.writeUInt16BE(1, 4); // class IN
  fixed.writeUInt32BE(60, 6); // TTL
  fixed.writeUInt16BE(2 + name.length, 10);
  fixed.writeUInt16BE(record.priority, 12);
  return Buffer.concat([fixed, name]);
}

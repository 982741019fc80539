import fs from "node:fs";
import tls from "node:tls";
import { errorFields, log } from "@/lib/foundation/log";

export interface TlsPair {
  key: Buffer;
  cert: Buffer;
}

export interface TlsFileWatch {
  stop(): void;
}

/** Reads the PEM pair and proves it usable (tls.createSecureContext throws on a key that does not match). */
export function readTlsPair(certPath: string, keyPath: string): TlsPair {
  const pair = { cert: fs.readFileSync(certPath), key: fs.readFileSync(keyPath) };
  tls.createSecureContext(pair);
  return pair;
}

/**
 * A renewed certificate serves the next handshake without a restart (docs/self-hosting.md#smtp-submission). Polling, as
 * certbot and Kubernetes replace files by renaming a symlink, which an inode watch misses. A bad pair is logged, the old
 * kept. `listener` names the listener in the log ("smtp submission", "inbound").
 */
export function watchTlsFiles(
  certPath: string,
  keyPath: string,
  onChange: (pair: TlsPair) => void,
  intervalMs = 2000,
  listener = "smtp submission",
): TlsFileWatch {
  const reload = (current: fs.Stats, previous: fs.Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    try {
      onChange(readTlsPair(certPath, keyPath));
      log.info(`${listener}: TLS certificate reloaded`, { cert: certPath });
    } catch (error) {
      log.warn(
        `${listener}: the TLS files changed but cannot be used; keeping the previous certificate`,
        errorFields(error),
      );
    }
  };
  fs.watchFile(certPath, { interval: intervalMs }, reload);
  fs.watchFile(keyPath, { interval: intervalMs }, reload);
  return {
    stop() {
      fs.unwatchFile(certPath, reload);
      fs.unwatchFile(keyPath, reload);
    },
  };
}

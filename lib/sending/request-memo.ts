/**
 * Runs `load` once per key for the lifetime of one request; every caller awaits the same promise.
 * A batch passes one to prepareMessage, so a template row, a sender-domain check or an unsubscribe
 * group shared by 1,000 elements is read once, not 1,000 times.
 */
export type RequestMemo = <T>(key: string, load: () => Promise<T> | PromiseLike<T>) => Promise<T>;

export function createRequestMemo(): RequestMemo {
  const entries = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T> | PromiseLike<T>) => {
    let entry = entries.get(key) as Promise<T> | undefined;
    if (!entry) {
      entry = Promise.resolve(load());
      entries.set(key, entry);
    }
    return entry;
  };
}

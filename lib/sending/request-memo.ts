/** Runs `load` once per key for one request, so a batch reads a shared template or domain once. */
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

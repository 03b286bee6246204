// SPEC 3's "encoded" values (browser storage, /stripecheckout's query): base64 of UTF-8 JSON.
export function encode(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary);
}

export function decode<T>(text: string | null): T | undefined {
  if (!text) return undefined;
  try {
    const binary = atob(text);
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as T;
  } catch {
    return undefined;
  }
}

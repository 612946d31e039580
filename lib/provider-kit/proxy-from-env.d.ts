/** proxy-from-env ships no types: the one function used. */
declare module "proxy-from-env" {
  /** The proxy URL for `url` per HTTP(S)_PROXY / ALL_PROXY and NO_PROXY, or "" for none. */
  export function getProxyForUrl(url: string | URL): string;
}

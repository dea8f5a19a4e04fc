import { MilpaError, Type, type ToolDefinition, type ToolInvocation } from '@milpa/core';
import { promises as dns } from 'node:dns';
import type { IncomingHttpHeaders } from 'node:http';
import { TextDecoder } from 'node:util';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { AddressAllowList } from './address-allow-list.js';
import { checkRequestHeaders } from './check-request-headers.js';
import { parseRequestUrl } from './parse-request-url.js';
import { resolveRequestTarget, type HostLookup, type RequestTargetPolicy } from './resolve-request-target.js';
import { sendCheckedRequest, type CheckedResponse } from './send-checked-request.js';
import { unreadableBodyReason } from './unreadable-body-reason.js';

/** Settings of {@link httpRequestTool}. */
export interface HttpRequestToolOptions {
  /** Scopes of which the caller needs one; default `['http:request']`. */
  readonly scopes?: readonly string[];
  /**
   * Exact `address:port` endpoints (`127.0.0.1:8080`, `[::1]:8080`) the tool may reach although
   * their address is in a forbidden range, e.g. a local test server. No wildcards; default none.
   */
  readonly allowedAddresses?: readonly string[];
  /**
   * Host names the tool may reach at all: `api.example.com` exactly, `*.example.com` for its
   * subdomains. Default: any public host. The address checks apply either way.
   */
  readonly allowedHosts?: readonly string[];
  /** Resolves host names (signature of `dns.promises.lookup` with `{ all: true }`); default `dns.promises.lookup`. */
  readonly lookup?: HostLookup;
  /** Deadline of the whole call (every hop: lookup, connect, headers, body), in ms; default 10 000. */
  readonly timeoutMs?: number;
  /** The most response body bytes returned; default 8192. */
  readonly maxResponseBytes?: number;
  /** The largest POST body, in UTF-8 bytes; default 65 536. */
  readonly maxRequestBodyBytes?: number;
  /** The most redirects followed; default 5. */
  readonly maxRedirects?: number;
  /** Extra certificate authorities (PEM) trusted for https besides Node's roots, e.g. a company or test CA. */
  readonly extraCa?: string | readonly string[];
  /** The `User-Agent` sent unless the call sets one; default `milpa-http-request`. */
  readonly userAgent?: string;
}

/** The arguments of the `http_request` tool. */
export interface HttpRequestArgs {
  /** `GET` (default) or `POST`. */
  readonly method?: 'GET' | 'POST';
  /** An absolute `http:` or `https:` URL without credentials. */
  readonly url: string;
  /** Extra request headers (no `Host`, framing, hop-by-hop, proxy or forwarding headers). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request body, POST only. */
  readonly body?: string;
}

/** What a successful `http_request` call returns. */
export interface HttpResponseData {
  /** The HTTP status of the final response (4xx and 5xx included: the request itself worked). */
  readonly status: number;
  /** A safe subset of the response headers (content type and length, location, caching, dates). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, at most `maxResponseBytes`; null when it is binary or encoded. */
  readonly body: string | null;
  /** Why `body` is null, or null. */
  readonly body_omitted: string | null;
  /** True when the body was cut at `maxResponseBytes`. */
  readonly truncated: boolean;
  /** The final URL, after redirects. */
  readonly url: string;
  /** The URLs redirected to, in order (empty without redirects). */
  readonly redirects: readonly string[];
}

interface PlannedRequest {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

interface HttpExchange {
  readonly response: CheckedResponse;
  readonly url: URL;
  readonly redirects: readonly string[];
}

const ARGUMENT_NAMES = ['method', 'url', 'headers', 'body'] as const;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const RETURNED_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'location',
  'last-modified',
  'etag',
  'cache-control',
  'expires',
  'retry-after',
  'date',
] as const;
// What a redirect to another origin keeps of the request's headers: content negotiation and the
// user agent. Everything else (Authorization, Cookie, X-Api-Key, Private-Token and any custom header
// that may carry a credential) was meant for the first origin only and is dropped.
const CROSS_ORIGIN_SAFE_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'user-agent',
  'cache-control',
]);

const INPUT = Type.Object(
  {
    method: Type.Optional(Type.Union([Type.Literal('GET'), Type.Literal('POST')], { description: 'GET (default) or POST.' })),
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'An absolute http: or https: URL to a public host.' }),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'Extra request headers, e.g. Accept or Authorization.' }),
    ),
    body: Type.Optional(Type.String({ description: 'The request body (POST only).' })),
  },
  { additionalProperties: false },
);

function positiveInteger(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new MilpaError(`httpRequestTool: ${name} must be a whole number ≥ ${min}, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

function pickHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of RETURNED_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    picked[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, 1024);
  }
  return picked;
}

function decodeBody(body: Buffer, headers: IncomingHttpHeaders, truncated: boolean): string {
  const charset = /charset\s*=\s*"?([A-Za-z0-9._:-]+)/i.exec(headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // A cut body may end inside a character: streaming mode holds those bytes back instead of
  // turning them into a replacement character.
  return decoder.decode(body, { stream: truncated });
}

/** Re-raises a refusal of redirect hop `hop` with a message naming the hop and its URL. */
function refuseHop(hop: number, target: string, error: unknown): never {
  if (!(error instanceof ToolError) || hop === 0) throw error;
  throw new ToolError(error.code, `Redirect ${hop} to ${target} refused: ${error.message}`, {
    cause: error.cause,
    details: { ...error.details, redirect: hop, redirect_url: target },
  });
}

/**
 * Creates the `http_request` tool: one GET or POST to a public `http:`/`https:` URL, guarded
 * against server-side request forgery at every hop.
 *
 * - The URL is parsed with WHATWG URL (decimal, octal and hex IPv4 forms become dotted decimal
 *   before any check); credentials in the URL are refused.
 * - Cloud metadata names and `localhost` are refused by name; an IP literal is checked as is; a
 *   name is resolved **once** and refused when **any** of its addresses is loopback, private,
 *   link-local, metadata, CGNAT, reserved, multicast, unspecified, or an IPv6 form embedding
 *   IPv4 (mapped, translated, compatible, NAT64, 6to4, Teredo) or any other special-purpose range. The socket then connects to that checked
 *   address itself, so DNS rebinding between check and connect has nothing to act on.
 * - Redirects (at most 5) are followed by hand, each hop passing the whole guard again; a hop from
 *   https to http is refused; 303 (and 301/302 after POST) continue as GET without the body;
 *   when a redirect leaves the origin, every request header is dropped except `Accept`,
 *   `Accept-Language`, `Content-Language`, `Content-Type`, `User-Agent` and `Cache-Control` (so
 *   `Authorization`, `Cookie`, `X-Api-Key`, `Private-Token` and any custom header stay with the
 *   origin they were sent to).
 * - The body is cut at 8 KiB (`truncated: true`), binary or encoded bodies are not returned, and
 *   10 s bound the whole call, as does the call's own signal.
 *
 * Tests reach a local server by listing its exact `address:port` in `allowedAddresses`.
 *
 * Mutating per call: a GET is read-only, a POST is mutating (it may change state on the remote side).
 *
 * Failure codes: `UNKNOWN_ARGUMENT`, `INVALID_METHOD`, `INVALID_URL`, `URL_CREDENTIALS_REFUSED`,
 * `INVALID_HEADER`, `HEADER_NOT_ALLOWED`, `INVALID_BODY`, `BODY_NOT_ALLOWED`, `BODY_TOO_LARGE`,
 * `HOST_NOT_ALLOWED`, `ADDRESS_FORBIDDEN`, `DNS_LOOKUP_FAILED`, `REDIRECT_REFUSED`,
 * `TOO_MANY_REDIRECTS`, `REQUEST_TIMEOUT`, `REQUEST_ABORTED`, `REQUEST_FAILED`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a malformed `allowedAddresses` entry or limit.
 * @example
 * const registry = new ToolRegistry();
 * registry.register(httpRequestTool({ allowedHosts: ['api.example.com'] }));
 * await registry.call('http_request', { url: 'https://api.example.com/status' }, context);
 */
export function httpRequestTool(options: HttpRequestToolOptions = {}): ToolDefinition<HttpRequestArgs> {
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, 10_000);
  const maxResponseBytes = positiveInteger('maxResponseBytes', options.maxResponseBytes, 8192);
  const maxRequestBodyBytes = positiveInteger('maxRequestBodyBytes', options.maxRequestBodyBytes, 65_536);
  const maxRedirects = positiveInteger('maxRedirects', options.maxRedirects, 5, 0);
  const userAgent = options.userAgent ?? 'milpa-http-request';
  const extraCa: readonly string[] = Object.freeze(
    options.extraCa === undefined ? [] : typeof options.extraCa === 'string' ? [options.extraCa] : [...options.extraCa],
  );
  if (
    options.allowedHosts !== undefined &&
    (!Array.isArray(options.allowedHosts) || options.allowedHosts.some((host) => typeof host !== 'string' || host === ''))
  ) {
    throw new MilpaError('httpRequestTool: allowedHosts must be an array of non-empty host names.', { code: 'INVALID_ARGUMENT' });
  }
  const policy: RequestTargetPolicy = Object.freeze({
    lookup: options.lookup ?? ((hostname: string, lookupOptions: { all: true }) => dns.lookup(hostname, lookupOptions)),
    allowedAddresses: AddressAllowList.parse(options.allowedAddresses ?? []),
    allowedHosts: options.allowedHosts === undefined ? null : Object.freeze([...options.allowedHosts]),
  });

  // `progress.url` is the hop in flight, so a timeout or network failure names the host it concerns.
  const exchange = async (planned: PlannedRequest, signal: AbortSignal, progress: { url: URL }): Promise<HttpExchange> => {
    let { method, url, headers, body } = planned;
    const redirects: string[] = [];
    for (let hop = 0; ; hop += 1) {
      const target = await resolveRequestTarget(url, policy, signal).catch((error: unknown) => refuseHop(hop, url.href, error));
      const response = await sendCheckedRequest(
        target,
        {
          method,
          headers,
          body,
          maxBodyBytes: maxResponseBytes,
          extraCa,
          readBody: (status, responseHeaders) =>
            !(REDIRECT_STATUSES.has(status) && responseHeaders.location !== undefined) && unreadableBodyReason(responseHeaders) === null,
        },
        signal,
      );
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return { response, url, redirects };

      if (redirects.length >= maxRedirects) {
        throw new ToolError(
          'TOO_MANY_REDIRECTS',
          `Stopped after ${maxRedirects} redirects; ${url.href} redirects again to ${location.slice(0, 200)}.`,
          { details: { redirects } },
        );
      }
      const next = (() => {
        try {
          return parseRequestUrl(location, url);
        } catch (error) {
          return refuseHop(hop + 1, location.slice(0, 200), error);
        }
      })();
      if (url.protocol === 'https:' && next.protocol === 'http:') {
        throw new ToolError('REDIRECT_REFUSED', `Redirect ${hop + 1} to ${next.href} refused: it downgrades https to http.`, {
          details: { redirect: hop + 1, redirect_url: next.href },
        });
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        const { 'content-type': _dropped, ...rest } = headers;
        headers = rest;
      }
      if (next.origin !== url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => CROSS_ORIGIN_SAFE_HEADERS.has(name.toLowerCase())));
      }
      redirects.push(next.href);
      url = next;
      progress.url = next;
    }
  };

  return defineLifecycleTool<typeof INPUT, PlannedRequest, HttpExchange>({
    name: 'http_request',
    title: 'HTTP request',
    description:
      'Send an HTTP GET or POST to a public http(s) URL and read the response (status, main headers, ' +
      `up to ${maxResponseBytes} bytes of text body). Private, loopback, link-local and cloud metadata ` +
      'addresses are refused, also after redirects.',
    input: INPUT,
    scopes: options.scopes ?? ['http:request'],
    // A GET reads; a POST may change state on the remote side, so it is mutating (approval, rate cost).
    mutating: (args) => args['method'] !== undefined && args['method'] !== 'GET',
    // The pipeline's deadline sits just beyond the tool's own, so the tool reports its timeout itself.
    timeoutMs: timeoutMs + 1000,
    routing: {
      intents: ['fetch', 'request', 'download', 'call_api'],
      domains: ['web', 'http', 'network'],
      tags: ['http', 'get', 'post', 'url', 'api', 'ssrf-guarded'],
      examples: ['GET https://api.example.com/status', 'POST JSON to a public webhook URL'],
    },

    plan: (args) => {
      const unknown = rejectUnknownArguments(args, ARGUMENT_NAMES);
      if (unknown !== null) return { result: unknown };
      const method = args.method ?? 'GET';
      if (method !== 'GET' && method !== 'POST') {
        return { result: failure('INVALID_METHOD', `method must be GET or POST, got ${JSON.stringify(method)}.`) };
      }
      const url = parseRequestUrl(args.url);
      const headers: Record<string, string> = { 'user-agent': userAgent, accept: '*/*', ...checkRequestHeaders(args.headers) };
      let body: string | null = null;
      if (args.body !== undefined) {
        if (method !== 'POST') return { result: failure('BODY_NOT_ALLOWED', 'A body may only be sent with POST.') };
        if (typeof args.body !== 'string') return { result: failure('INVALID_BODY', 'body must be a string.') };
        const size = Buffer.byteLength(args.body);
        if (size > maxRequestBodyBytes) {
          return {
            result: failure('BODY_TOO_LARGE', `body is ${size} bytes; at most ${maxRequestBodyBytes} are allowed.`, {
              size,
              max: maxRequestBodyBytes,
            }),
          };
        }
        body = args.body;
        headers['content-type'] ??= 'text/plain; charset=utf-8';
      }
      return { input: { method, url, headers, body } };
    },

    perform: async (planned, invocation: ToolInvocation) => {
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new Error('timeout')), timeoutMs);
      const signal = AbortSignal.any([invocation.signal, deadline.signal]);
      const progress = { url: planned.url };
      try {
        return await exchange(planned, signal, progress);
      } catch (error) {
        if (error instanceof ToolError) throw error;
        if (deadline.signal.aborted) {
          throw new ToolError('REQUEST_TIMEOUT', `No complete response from ${progress.url.host} within ${timeoutMs} ms.`, {
            details: { timeout_ms: timeoutMs },
          });
        }
        if (invocation.signal.aborted) throw new ToolError('REQUEST_ABORTED', 'The request was aborted by the caller.');
        const code = (error as { code?: unknown } | null)?.code;
        const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
        throw new ToolError('REQUEST_FAILED', `The request to ${progress.url.host} failed: ${reason}.`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
    },

    complete: ({ response, url, redirects }) => {
      const omitted = response.body === null ? (unreadableBodyReason(response.headers) ?? 'the response was not read') : null;
      const data: HttpResponseData = {
        status: response.status,
        headers: pickHeaders(response.headers),
        body: response.body === null ? null : decodeBody(response.body, response.headers, response.truncated),
        body_omitted: omitted,
        truncated: response.truncated,
        url: url.href,
        redirects,
      };
      const warnings: string[] = [];
      if (response.truncated) warnings.push(`Response body truncated at ${maxResponseBytes} bytes.`);
      if (omitted !== null) warnings.push(`Response body not returned: ${omitted}.`);
      return success(data, { bytes: response.body?.length ?? 0 }, warnings);
    },
  }) as ToolDefinition<HttpRequestArgs>;
}

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ProtectedResourceMetadata } from './protected-resource-metadata.js';

function request(host?: string): IncomingMessage {
  return { headers: host === undefined ? {} : { host } } as IncomingMessage;
}

describe('ProtectedResourceMetadata', () => {
  const metadata = new ProtectedResourceMetadata({}, '/mcp', () => '127.0.0.1:3000');

  it('recognises the root and the path-suffixed well-known paths only', () => {
    expect(metadata.isMetadataPath('/.well-known/oauth-protected-resource')).toBe(true);
    expect(metadata.isMetadataPath('/.well-known/oauth-protected-resource/mcp')).toBe(true);
    expect(metadata.isMetadataPath('/.well-known/oauth-protected-resource/other')).toBe(false);
    expect(metadata.isMetadataPath('/mcp')).toBe(false);
  });

  it('builds the resource from a well-formed Host, and falls back to the bound address otherwise', () => {
    expect(metadata.resource(request('mcp.example.com:8080'))).toBe('http://mcp.example.com:8080/mcp');
    expect(metadata.resource(request('[::1]:3000'))).toBe('http://[::1]:3000/mcp');
    expect(metadata.resource(request())).toBe('http://127.0.0.1:3000/mcp');
    for (const hostile of ['evil.example/x?', 'a b', 'evil"quote', 'user@evil.example', '']) {
      expect(metadata.resource(request(hostile))).toBe('http://127.0.0.1:3000/mcp');
    }
  });

  it('places the metadata URL between the origin and the resource path', () => {
    expect(metadata.metadataUrl(request('localhost:3000'))).toBe('http://localhost:3000/.well-known/oauth-protected-resource/mcp');
    const root = new ProtectedResourceMetadata({ resource: 'https://mcp.example.com/' }, '/mcp', () => 'x');
    expect(root.metadataUrl(request())).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
  });

  it('writes challenges with and without an error, never letting a description break out of its quotes', () => {
    expect(metadata.challenge(request('localhost:3000'))).toBe(
      'Bearer resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp"',
    );
    expect(metadata.challenge(request('localhost:3000'), 'Bad "token"\\\r\nX-Injected: 1')).toBe(
      "Bearer error=\"invalid_token\", error_description=\"Bad 'token''''X-Injected: 1\", " +
        'resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('publishes only the fields configured, plus the bearer method', () => {
    expect(metadata.document(request('localhost:3000'))).toEqual({
      resource: 'http://localhost:3000/mcp',
      authorization_servers: [],
      bearer_methods_supported: ['header'],
    });
    const full = new ProtectedResourceMetadata(
      {
        authorizationServers: ['https://auth.example.com'],
        scopesSupported: ['a'],
        resourceName: 'Notes',
        resourceDocumentation: 'https://docs.example.com',
      },
      '/mcp',
      () => 'x',
    );
    expect(full.document(request('h'))).toEqual({
      resource: 'http://h/mcp',
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['a'],
      resource_name: 'Notes',
      resource_documentation: 'https://docs.example.com',
    });
  });
});

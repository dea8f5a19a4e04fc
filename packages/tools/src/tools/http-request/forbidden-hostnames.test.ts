import { describe, expect, it } from 'vitest';
import { forbiddenHostnameReason } from './forbidden-hostnames.js';

describe('forbiddenHostnameReason', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
    'metadata',
    'metadata.google.internal',
    'metadata.google.internal.',
    'metadata.goog',
    'instance-data',
    'instance-data.ec2.internal',
  ])('refuses %s', (hostname) => {
    expect(forbiddenHostnameReason(hostname)).not.toBeNull();
  });

  it.each(['example.com', 'localhost.example.com', 'metadata.example.com', 'notlocalhost'])('accepts %s', (hostname) => {
    expect(forbiddenHostnameReason(hostname)).toBeNull();
  });
});

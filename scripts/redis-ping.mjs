// Asks a Redis server for a PING over a plain socket (the root has no Redis client), for
// scripts/test.mjs: with CI set, a missing Redis stops the test command before anything runs.
import { connect } from 'node:net';

/** Where the tests find Redis: `REDIS_URL`, or a local server on the default port. */
export function redisUrlOf(env) {
  const given = env.REDIS_URL;
  return given === undefined || given === '' ? 'redis://127.0.0.1:6379' : given;
}

/**
 * Resolves to null when the server at `url` answers PING (or asks for a password, which proves a
 * Redis is there), otherwise to the reason it did not. Never rejects.
 * @param {string} url a `redis://host:port` URL
 * @param {number} timeoutMs how long to wait for the connection and the answer
 * @returns {Promise<string | null>}
 */
export function pingRedis(url, timeoutMs = 5_000) {
  let target;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(`not a URL: ${url}`);
  }
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || 6379) });
    let answer = '';
    const finish = (reason) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => finish(`no answer within ${timeoutMs / 1000}s`));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      if (!answer.includes('\r\n')) return;
      finish(/^(\+PONG|-NOAUTH)/.test(answer) ? null : `unexpected answer ${JSON.stringify(answer.trim().slice(0, 60))}`);
    });
    socket.on('error', (error) => finish(error.message));
    socket.on('end', () => finish('the connection was closed without an answer'));
  });
}

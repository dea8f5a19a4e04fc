// Asks the services the tests use whether they are there, over plain sockets (the root has no Redis
// or PostgreSQL client), for scripts/test.mjs: with CI set, a missing service stops the test command
// before anything runs.
import { connect } from 'node:net';

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

/** The SSLRequest message: length 8, then the code 80877103; any PostgreSQL server answers one byte. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]);

/**
 * Resolves to null when a PostgreSQL server answers at `url`'s host and port (it answers an
 * SSLRequest with `S` or `N`; no credentials are sent), otherwise to the reason it did not. Never rejects.
 * @param {string} url a `postgres://user@host:port/database` URL
 * @param {number} timeoutMs how long to wait for the connection and the answer
 * @returns {Promise<string | null>}
 */
export function pingPostgres(url, timeoutMs = 5_000) {
  let target;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve('not a URL');
  }
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(target.port || 5432) });
    const finish = (reason) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => finish(`no answer within ${timeoutMs / 1000}s`));
    socket.on('connect', () => socket.write(SSL_REQUEST));
    socket.on('data', (data) => {
      const answer = String.fromCharCode(data[0] ?? 0);
      finish(answer === 'S' || answer === 'N' ? null : `not a PostgreSQL server (answered ${JSON.stringify(answer)})`);
    });
    socket.on('error', (error) => finish(error.message));
    socket.on('end', () => finish('the connection was closed without an answer'));
  });
}

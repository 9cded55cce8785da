import { request as httpRequest } from 'node:http';

/**
 * An event stream read by this process: `onEvent(type, data)` for each event; resolves once the
 * stream is open. `close()` ends it.
 */
export function openStream(port, cookie, onEvent = () => undefined) {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path: '/api/events', headers: { cookie, accept: 'text/event-stream' }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`The event stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        let buffered = '';
        let heartbeats = 0;
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          buffered += chunk;
          let end = buffered.indexOf('\n\n');
          while (end >= 0) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            end = buffered.indexOf('\n\n');
            if (block.includes(': heartbeat')) heartbeats += 1;
            const type = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (type && data) onEvent(type, JSON.parse(data));
          }
        });
        // A stream this process closes ends with a reset: nothing to report.
        response.on('error', () => undefined);
        resolve({ close: () => outgoing.destroy(), heartbeats: () => heartbeats });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

import { waitFor } from '@likeness/testing';

export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

export interface OpenedEventStream {
  status: number;
  /** The answer's headers, by lower-case name. */
  headers: Record<string, string>;
  /** The refusal's JSON body when the stream was not opened. */
  refusal: { code: string; message: string } | undefined;
  messages: SseMessage[];
  /** Comment lines (`: heartbeat`) and `retry:` values, in order, as received. */
  comments: string[];
  retries: number[];
  /** Resolves when the server ends the stream (not when the test aborts it). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits until `count` messages have come; returns them all. */
  waitForMessages(count: number, what: string): Promise<SseMessage[]>;
  abort(): void;
}

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** A client of `GET /api/events` that reads the stream as EventSource would, keeping what it saw. */
export async function openEventStream(
  baseUrl: string,
  { cookie, lastEventId, ip = '192.0.2.10' }: { cookie: string; lastEventId?: string; ip?: string },
): Promise<OpenedEventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, {
    headers: {
      cookie,
      accept: 'text/event-stream',
      'x-forwarded-for': ip,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  let ended = false;
  if (response.status !== 200) {
    const refusal = (await response.json().catch(() => undefined)) as OpenedEventStream['refusal'];
    return {
      status: response.status,
      headers: headersOf(response),
      refusal,
      messages,
      comments,
      retries,
      ended: Promise.resolve(),
      isEnded: () => true,
      waitForMessages: () => Promise.reject(new Error(`The stream was refused (${response.status})`)),
      abort: () => controller.abort(),
    };
  }
  const read = async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    let current: Partial<SseMessage> & { dataLines: string[] } = { dataLines: [] };
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
        if (line === '') {
          if (current.dataLines.length > 0) {
            messages.push({ id: current.id, event: current.event ?? 'message', data: current.dataLines.join('\n') });
          }
          current = { dataLines: [] };
        } else if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else {
          const [field = '', ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') current.id = value;
          else if (field === 'event') current.event = value;
          else if (field === 'data') current.dataLines.push(value);
          else if (field === 'retry') retries.push(Number(value));
        }
      }
    }
  };
  const endedPromise = read().then(
    () => {
      ended = true;
    },
    () => {
      ended = true;
    },
  );
  return {
    status: response.status,
    headers: headersOf(response),
    refusal: undefined,
    messages,
    comments,
    retries,
    ended: endedPromise,
    isEnded: () => ended,
    waitForMessages: (count, what) =>
      waitFor(async () => (messages.length >= count ? messages.slice() : undefined), { timeoutMs: 20_000, what }),
    abort: () => controller.abort(),
  };
}

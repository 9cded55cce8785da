// What the soak saw: every request (route template, status, error code, start and latency) and
// every injected fault (its window), and the summary made from them.

/** A fault's window reaches this far past its recovery: requests already waiting on it end late. */
export const FAULT_GRACE_MS = 15_000;

export class SoakRecord {
  /** @type {{ route: string, status: number, code: string | undefined, startedAt: number, ms: number }[]} */
  requests = [];
  /** @type {{ fault: string, startedAt: number, recoveredAt: number | undefined, note: string }[]} */
  faults = [];
  /** Avatars their owners deleted (a completed job may lack them). */
  deletedAvatarIds = new Set();
  /** What the simulated people got done: `training failed`, `payment declined`... */
  outcomes = new Map();

  count(outcome) {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
  }

  /** A request's outcome; status 0 is no answer at all (the connection failed or timed out). */
  request(route, status, code, startedAt, ms) {
    this.requests.push({ route, status, code, startedAt, ms });
  }

  /** Starts a fault's window; call `recovered` on what it returns when the fault is over. */
  fault(fault, note = '') {
    const entry = { fault, startedAt: Date.now(), recoveredAt: undefined, note };
    this.faults.push(entry);
    return {
      recovered: (more = '') => {
        entry.recoveredAt = Date.now();
        if (more) entry.note = entry.note ? `${entry.note}; ${more}` : more;
      },
    };
  }

  /** The fault whose window a request (from its start to its answer) overlaps, if any. */
  faultOf(request) {
    const end = request.startedAt + request.ms;
    return this.faults.find(
      (fault) => request.startedAt <= (fault.recoveredAt ?? Date.now()) + FAULT_GRACE_MS && end >= fault.startedAt,
    );
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

/** Requests served, errors by kind (5xx inside and outside fault windows), p50/p99 per route. */
export function summarize(record, { startedAt, endedAt }) {
  const routes = new Map();
  for (const request of record.requests) {
    const list = routes.get(request.route) ?? [];
    list.push(request);
    routes.set(request.route, list);
  }
  const perRoute = [...routes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, requests]) => {
      const answered = requests.filter((request) => request.status > 0 && request.status < 500);
      const sorted = answered.map((request) => request.ms).sort((a, b) => a - b);
      const statuses = {};
      for (const request of requests) statuses[request.status] = (statuses[request.status] ?? 0) + 1;
      return {
        route,
        requests: requests.length,
        statuses,
        p50: Math.round(quantile(sorted, 0.5)),
        p99: Math.round(quantile(sorted, 0.99)),
      };
    });
  const errorKinds = new Map();
  const serverErrors = [];
  for (const request of record.requests) {
    if (request.status >= 200 && request.status < 400) continue;
    const kind = request.status === 0 ? 'no answer' : `${request.status} ${request.code ?? ''}`.trim();
    const key = `${request.route} → ${kind}`;
    const fault = request.status >= 500 || request.status === 0 ? record.faultOf(request) : undefined;
    const entry = errorKinds.get(key) ?? { route: request.route, kind, count: 0, inFault: 0, outsideFault: 0 };
    entry.count += 1;
    if (request.status >= 500 || request.status === 0) {
      if (fault) entry.inFault += 1;
      else entry.outsideFault += 1;
      serverErrors.push({
        at: new Date(request.startedAt).toISOString(),
        route: request.route,
        status: request.status,
        code: request.code,
        ms: Math.round(request.ms),
        fault: fault?.fault ?? null,
      });
    }
    errorKinds.set(key, entry);
  }
  const errors = [...errorKinds.values()].sort((a, b) => b.count - a.count);
  return {
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
    seconds: Math.round((endedAt - startedAt) / 1000),
    requests: record.requests.length,
    served: record.requests.filter((request) => request.status > 0 && request.status < 500).length,
    serverErrors: {
      total: serverErrors.length,
      inFaultWindows: serverErrors.filter((error) => error.fault).length,
      outsideFaultWindows: serverErrors.filter((error) => !error.fault).length,
      list: serverErrors,
    },
    errors,
    outcomes: Object.fromEntries([...record.outcomes].sort(([a], [b]) => a.localeCompare(b))),
    perRoute,
    faults: record.faults.map((fault) => ({
      fault: fault.fault,
      startedAt: new Date(fault.startedAt).toISOString(),
      recoveredAt: fault.recoveredAt ? new Date(fault.recoveredAt).toISOString() : null,
      seconds: fault.recoveredAt ? Math.round((fault.recoveredAt - fault.startedAt) / 100) / 10 : null,
      note: fault.note,
    })),
  };
}

/** The summary as markdown (the section docs/benchmarks.md keeps). */
export function summaryMarkdown(summary, { machine, users, minutes, audit }) {
  const lines = [
    `- machine: ${machine}`,
    `- run: ${summary.startedAt} → ${summary.endedAt} (${minutes} min of load, ${users} simulated users)`,
    `- what the users did: ${Object.entries(summary.outcomes)
      .map(([outcome, count]) => `${outcome} ${count}`)
      .join(', ')}`,
    `- requests: ${summary.requests}, served (answered below 500): ${summary.served}; 5xx or no answer: ${summary.serverErrors.total} (${summary.serverErrors.inFaultWindows} inside fault windows, ${summary.serverErrors.outsideFaultWindows} outside)`,
    '',
    '| fault | started | recovered | seconds | note |',
    '| --- | --- | --- | --- | --- |',
    ...summary.faults.map(
      (fault) =>
        `| ${fault.fault} | ${fault.startedAt.slice(11, 19)} | ${fault.recoveredAt?.slice(11, 19) ?? '-'} | ${fault.seconds ?? '-'} | ${fault.note} |`,
    ),
    '',
    '| route | requests | statuses | p50 ms | p99 ms |',
    '| --- | --- | --- | --- | --- |',
    ...summary.perRoute.map(
      (route) =>
        `| \`${route.route}\` | ${route.requests} | ${Object.entries(route.statuses)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')} | ${route.p50} | ${route.p99} |`,
    ),
    '',
    '| errors by kind | count | 5xx in a fault window | 5xx outside |',
    '| --- | --- | --- | --- |',
    ...summary.errors.map(
      (error) => `| \`${error.route}\` → ${error.kind} | ${error.count} | ${error.inFault} | ${error.outsideFault} |`,
    ),
  ];
  if (summary.serverErrors.list.length > 0) {
    lines.push('', '5xx and unanswered requests:', '');
    for (const error of summary.serverErrors.list.slice(0, 50)) {
      lines.push(
        `- ${error.at.slice(11, 23)} \`${error.route}\` ${error.status || 'no answer'} ${error.code ?? ''} after ${error.ms} ms — ${error.fault ? `during ${error.fault}` : 'outside every fault window'}`,
      );
    }
  }
  if (audit) lines.push('', 'Audit:', '', '```', ...audit.lines, '```');
  return lines.join('\n');
}

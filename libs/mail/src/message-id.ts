import { createHash } from 'node:crypto';

/** A Message-ID from our own id: the same message always gets the same one. */
export function messageIdOf(id: string, domain: string): string {
  return `<${createHash('sha256').update(id).digest('hex').slice(0, 32)}@${domain}>`;
}

/** The domain of an address (`noreply@likeness.app` → `likeness.app`), for Message-IDs. */
export function domainOf(address: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(address);
  return match?.[1]?.toLowerCase() ?? 'localhost';
}

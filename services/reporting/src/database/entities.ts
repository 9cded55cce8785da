/**
 * The service's own tables are written with SQL only (src/read-models): their trigram and keyset
 * indexes are beyond what entities describe, and the kit brings the outbox and inbox.
 */
export const entities: Function[] = [];

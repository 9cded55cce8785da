import { DeletedUser } from '../users/deleted-user.entity.js';
import { ReportedUser } from '../users/reported-user.entity.js';

/** The service's own tables (the outbox and inbox come with the kit). */
export const entities: Function[] = [ReportedUser, DeletedUser];

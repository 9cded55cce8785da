import { SERVICE_NAMES } from '@likeness/contracts';
import { databaseRolesConfigSchema, serviceDatabaseUrlKey, serviceRolesOf } from './service-roles.js';

const env = (overrides: Record<string, string> = {}) => ({
  DATABASE_ADMIN_URL: 'postgres://postgres:admin-password@db:5432/likeness',
  ...Object.fromEntries(
    SERVICE_NAMES.map((service) => [
      serviceDatabaseUrlKey(service),
      `postgres://likeness_${service}:${service}-p%40ss@db:5432/likeness`,
    ]),
  ),
  ...overrides,
});

const problems = (values: Record<string, string>) =>
  databaseRolesConfigSchema.safeParse(values).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('databaseRolesConfigSchema', () => {
  it('should read each service’s role and password from the URL it connects with', () => {
    const roles = serviceRolesOf(databaseRolesConfigSchema.parse(env()));
    expect(roles).toEqual(
      SERVICE_NAMES.map((service) => ({ schema: service, role: `likeness_${service}`, password: `${service}-p@ss` })),
    );
  });

  it('should leave the password alone when a URL has none', () => {
    const config = databaseRolesConfigSchema.parse(env({ AUTH_DATABASE_URL: 'postgres://likeness_auth@db/likeness' }));
    expect(serviceRolesOf(config)[0]).toEqual({ schema: 'auth', role: 'likeness_auth' });
  });

  it('should refuse two services sharing a role, the administrator as a service and another database', () => {
    expect(
      problems(
        env({
          BILLING_DATABASE_URL: 'postgres://likeness_auth:x@db:5432/likeness',
          MEDIA_DATABASE_URL: 'postgres://postgres:x@db:5432/likeness',
          TRAINING_DATABASE_URL: 'postgres://likeness_training:x@db:5432/other',
        }),
      ),
    ).toEqual([
      'BILLING_DATABASE_URL: shares its user likeness_auth with AUTH_DATABASE_URL',
      'MEDIA_DATABASE_URL: must not be the administrator',
      'TRAINING_DATABASE_URL: must name the database likeness',
    ]);
  });

  it('should refuse a missing URL and a role name that needs quoting', () => {
    const values: Record<string, string> = env({ REPORTING_DATABASE_URL: 'postgres://Reporting-Role:x@db/likeness' });
    delete values['GENERATION_DATABASE_URL'];
    expect(problems(values)).toEqual([
      expect.stringMatching(/^GENERATION_DATABASE_URL: /),
      expect.stringMatching(/^REPORTING_DATABASE_URL: its user must match/),
    ]);
  });
});

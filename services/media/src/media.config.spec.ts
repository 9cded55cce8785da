import { ConfigError, loadConfig } from '@likeness/nest-kit';
import { mediaConfigSchema } from './media.config.js';
import { storageFromConfig } from '@likeness/storage';

const base = { DATABASE_URL: 'postgres://localhost/likeness', MEDIA_SECRET: 's'.repeat(32) };

describe('mediaConfigSchema', () => {
  it('should need a MEDIA_SECRET of at least 32 characters', () => {
    expect(() => loadConfig(mediaConfigSchema, { DATABASE_URL: base.DATABASE_URL })).toThrow(ConfigError);
    expect(() => loadConfig(mediaConfigSchema, { ...base, MEDIA_SECRET: 'short' })).toThrow(
      /MEDIA_SECRET: must be at least 32 characters/,
    );
  });

  it('should store files under DATA_DIR/objects unless a bucket is set', () => {
    const config = loadConfig(mediaConfigSchema, { ...base, DATA_DIR: '/tmp/likeness-test' });
    expect(config).toMatchObject({ STORAGE_DRIVER: 'auto', SIGNED_URL_TTL_SECONDS: 3600 });
    expect(config.PUBLIC_URL).toBeUndefined();
    expect(storageFromConfig(config).kind).toBe('local');
  });

  it('should use S3 when a bucket is set, with path-style addressing for a custom endpoint', () => {
    const config = loadConfig(mediaConfigSchema, {
      ...base,
      S3_BUCKET: 'likeness-media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
    });
    expect(config.S3_FORCE_PATH_STYLE).toBeUndefined();
    expect(storageFromConfig(config).kind).toBe('s3');
  });

  it('should refuse STORAGE_DRIVER=s3 without a bucket, and half a key pair', () => {
    expect(() => loadConfig(mediaConfigSchema, { ...base, STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig(mediaConfigSchema, { ...base, S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_ACCESS_KEY_ID/);
  });

  it('should keep only the origin of PUBLIC_URL', () => {
    expect(loadConfig(mediaConfigSchema, { ...base, PUBLIC_URL: 'https://likeness.example/app/' }).PUBLIC_URL).toBe(
      'https://likeness.example',
    );
  });

  it('should give each person 600 MP a minute, 320 MP (one full upload) at once, and let 0 turn it off', () => {
    expect(loadConfig(mediaConfigSchema, base)).toMatchObject({
      MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: 600,
      MEDIA_PIXEL_BURST_MP: 320,
    });
    expect(loadConfig(mediaConfigSchema, { ...base, MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: '0' })).toMatchObject({
      MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: 0,
    });
  });

  it('should refuse a burst smaller than one file, and a budget that takes more than an hour to fill', () => {
    expect(() => loadConfig(mediaConfigSchema, { ...base, MEDIA_PIXEL_BURST_MP: '24' })).toThrow(
      'MEDIA_PIXEL_BURST_MP: must be at least 25 (one file at the per-file cap)',
    );
    expect(() =>
      loadConfig(mediaConfigSchema, { ...base, MEDIA_PIXEL_BURST_MP: '320', MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: '5' }),
    ).toThrow('MEDIA_PIXEL_BUDGET_MP_PER_MINUTE: must refill MEDIA_PIXEL_BURST_MP within 60 minutes');
  });
});

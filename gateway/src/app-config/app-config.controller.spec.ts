import { loadConfig } from '@likeness/nest-kit';
import { gatewayConfigSchema } from '../gateway.config.js';
import { AppConfigController } from './app-config.controller.js';

const REQUIRED = { JWT_SECRET: 'j'.repeat(32), MEDIA_SECRET: 'm'.repeat(32) };
const appConfigWith = (env: Record<string, string>) =>
  new AppConfigController(loadConfig(gatewayConfigSchema, { ...REQUIRED, ...env })).get();

describe(AppConfigController.name, () => {
  it('should list no social link when the deployment configured none', () => {
    expect(appConfigWith({}).socialLinks).toEqual([]);
  });

  it("should list the deployment's own social accounts in SPEC's order, leaving out the unset", () => {
    const config = appConfigWith({
      SOCIAL_CODE_URL: 'https://code.example/likeness',
      SOCIAL_MICROBLOG_URL: 'https://microblog.example/@likeness',
    });

    expect(config.socialLinks).toEqual([
      { kind: 'microblog', url: 'https://microblog.example/@likeness' },
      { kind: 'code', url: 'https://code.example/likeness' },
    ]);
  });

  it('should refuse a social link that is not an http(s) URL', () => {
    expect(() => appConfigWith({ SOCIAL_PHOTOS_URL: 'javascript:alert(1)' })).toThrow(
      /SOCIAL_PHOTOS_URL: must be an http\(s\):\/\/ URL/,
    );
  });
});

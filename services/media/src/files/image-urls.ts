import { APP_CONFIG } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { MediaConfig } from '../media.config.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { UrlSigner } from './url-signer.js';

/** The URLs images are reached by: signed ones for the owner, presigned ones for providers. */
@Injectable()
export class ImageUrls {
  readonly signer: UrlSigner;

  constructor(
    @Inject(APP_CONFIG) private readonly config: MediaConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {
    this.signer = new UrlSigner(config.MEDIA_SECRET, config.SIGNED_URL_TTL_SECONDS);
  }

  /** A relative, signed, expiring URL for the SPA. */
  signed(key: string): string {
    return this.signer.fileUrl(key);
  }

  /**
   * An absolute URL a party outside the system (the inference provider) can fetch: the
   * storage's own presigned URL, else our signed one on PUBLIC_URL, else none.
   */
  async forProvider(key: string, ttlSeconds = this.config.SIGNED_URL_TTL_SECONDS): Promise<string | undefined> {
    const presigned = await this.storage.presignGet(key, ttlSeconds);
    if (presigned) return presigned;
    if (!this.config.PUBLIC_URL) return undefined;
    // Signed with the same key, so the usual check accepts it; only the expiry differs.
    const signer =
      ttlSeconds === this.config.SIGNED_URL_TTL_SECONDS
        ? this.signer
        : new UrlSigner(this.config.MEDIA_SECRET, ttlSeconds);
    return `${this.config.PUBLIC_URL}${signer.fileUrl(key)}`;
  }
}

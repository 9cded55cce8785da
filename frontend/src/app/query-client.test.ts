import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { loadToaster } from '@/components/ui/toaster-loader';
import { createAppQueryClient } from './query-client';

vi.mock('@/components/ui/toaster-loader', () => ({ loadToaster: vi.fn(() => Promise.resolve(() => null)) }));

describe('createAppQueryClient', () => {
  it("should fetch the toaster's code when something the user did starts a mutation, and not before", async () => {
    const client = createAppQueryClient();
    expect(loadToaster).not.toHaveBeenCalled();

    await new MutationObserver(client, { mutationFn: async () => 'saved' }).mutate();

    expect(loadToaster).toHaveBeenCalledTimes(1);
  });
});

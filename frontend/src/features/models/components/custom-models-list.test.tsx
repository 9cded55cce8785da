import type { CurrentUser } from '@likeness/contracts';
import { focusManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeSelfies } from '@/test/media-fixtures';
import { type ApiHandlers, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';
import { makeModel, type ModelFixture } from '@/test/training-fixtures';

const ada: CurrentUser = { id: 2, username: 'ada', email: 'ada@example.com', credits: 40, role: 'user' };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function openModels(models: ModelFixture[] | (() => ModelFixture[]), handlers: ApiHandlers = {}) {
  const fetchMock = mockApi({
    user: ada,
    handlers: {
      'GET /api/uploaded-images': () => jsonResponse(makeSelfies(3)),
      'GET /api/custom-models': () => jsonResponse(typeof models === 'function' ? models() : models),
      'GET /api/inference/config': () => jsonResponse({ provider: 'local' }),
      ...handlers,
    },
  });
  const app = renderApp('/models');
  await screen.findByRole('region', { name: 'Your Custom Models' });
  return { ...app, fetchMock };
}

function list() {
  return within(screen.getByRole('region', { name: 'Your Custom Models' }));
}

async function item(name: string) {
  return within(await list().findByRole('listitem', { name }));
}

function modelCalls(fetchMock: ReturnType<typeof mockApi>) {
  return callsTo(fetchMock, 'GET', '/api/custom-models');
}

describe('Your Custom Models', () => {
  afterEach(() => {
    focusManager.setFocused(undefined);
  });

  it('should say what to do when there are no models yet', async () => {
    await openModels([]);

    expect(await screen.findByText('No custom models yet')).toBeInTheDocument();
  });

  it('should show a loading state until the models arrive', async () => {
    const answer = deferred<Response>();
    await openModels([], { 'GET /api/custom-models': () => answer.promise });

    expect(await screen.findByRole('status', { name: 'Loading your models...' })).toBeInTheDocument();
    answer.resolve(jsonResponse([makeModel(1)]));
    expect(await list().findByText('model-1')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading your models...' })).not.toBeInTheDocument();
  });

  it('should offer to try again when the models cannot be loaded', async () => {
    let fail = true;
    const { user } = await openModels([], {
      'GET /api/custom-models': () =>
        fail ? errorResponse(500, 'COMMON.INTERNAL', 'Something went wrong') : jsonResponse([makeModel(1)]),
    });

    expect(await screen.findByText("We couldn't load your models.")).toBeInTheDocument();
    fail = false;
    await user.click(list().getByRole('button', { name: 'Try again' }));
    expect(await list().findByText('model-1')).toBeInTheDocument();
  });

  it('should show each model with its trigger word, created date and status in SPEC words and colours', async () => {
    await openModels([
      makeModel(6, { status: 'pending' }),
      makeModel(5, { status: 'training' }),
      makeModel(4, { status: 'completed' }),
      makeModel(3, { status: 'ready' }),
      makeModel(2, { status: 'failed', failureReason: 'The provider could not read the selfies.' }),
      makeModel(1, { status: 'cancelled' }),
    ]);

    const expected = [
      ['model-6', 'Preparing to train', 'yellow'],
      ['model-5', 'Training in progress', 'blue'],
      ['model-4', 'Ready to use', 'green'],
      ['model-3', 'Ready to use', 'green'],
      ['model-2', 'Training failed', 'red'],
      ['model-1', 'cancelled', 'grey'],
    ] as const;
    for (const [name, label, tone] of expected) {
      const model = await item(name);
      expect(model.getByText(label)).toHaveAttribute('data-tone', tone);
    }
    const failed = await item('model-2');
    expect(failed.getByText('The provider could not read the selfies.')).toBeInTheDocument();
    const ready = await item('model-4');
    expect(ready.getByText('word4')).toBeInTheDocument();
    const created = ready.getByText(/2026/);
    expect(created.tagName).toBe('TIME');
    expect(created).toHaveAttribute('dateTime', makeModel(4).createdAt);
    expect(list().getByText('6 models')).toBeInTheDocument();
  });

  it('should copy a trigger word', async () => {
    const { user } = await openModels([makeModel(1)]);

    await user.click((await item('model-1')).getByRole('button', { name: 'Copy trigger word word1' }));

    expect(await screen.findByText('Trigger word copied')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('word1');
  });

  it('should delete a model after confirming', async () => {
    let models = [makeModel(2), makeModel(1, { status: 'failed' })];
    const { user, fetchMock } = await openModels(() => models, {
      'DELETE /api/custom-models/2': () => {
        models = models.filter(({ id }) => id !== 2);
        return jsonResponse({ deleted: true });
      },
    });

    await user.click((await item('model-2')).getByRole('button', { name: 'Delete model-2' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete this model?' }));
    await user.click(dialog.getByRole('button', { name: 'Delete model' }));

    expect(await screen.findByText('Model deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', '/api/custom-models/2')).toHaveLength(1);
    expect(list().queryByText('model-2')).not.toBeInTheDocument();
    expect(list().getByText('model-1')).toBeInTheDocument();
  });

  it('should send nothing when the deletion is cancelled', async () => {
    const { user, fetchMock } = await openModels([makeModel(1)]);

    await user.click((await item('model-1')).getByRole('button', { name: 'Delete model-1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));

    expect(callsTo(fetchMock, 'DELETE', '/api/custom-models/1')).toHaveLength(0);
    expect(list().getByText('model-1')).toBeInTheDocument();
  });

  it('should offer no delete while a model is pending or training', async () => {
    await openModels([makeModel(2, { status: 'training' }), makeModel(1, { status: 'pending' })]);

    expect((await item('model-2')).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect((await item('model-1')).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('should show the server message when a model cannot be deleted', async () => {
    const { user } = await openModels([makeModel(1)], {
      'DELETE /api/custom-models/1': () =>
        errorResponse(409, 'TRAINING.MODEL_TRAINING', 'This model is still training and cannot be deleted.'),
    });

    await user.click((await item('model-1')).getByRole('button', { name: 'Delete model-1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete model' }));

    expect(await screen.findByText('Delete failed')).toBeInTheDocument();
    expect(screen.getByText('This model is still training and cannot be deleted.')).toBeInTheDocument();
    expect(list().getByText('model-1')).toBeInTheDocument();
  });

  it('should fall back to "Failed to delete model." without a server message', async () => {
    const { user } = await openModels([makeModel(1)], {
      'DELETE /api/custom-models/1': () => new Response('', { status: 500, statusText: 'Server Error' }),
    });

    await user.click((await item('model-1')).getByRole('button', { name: 'Delete model-1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete model' }));

    expect(await screen.findByText('Failed to delete model.')).toBeInTheDocument();
  });

  describe('refreshing', () => {
    it('should refetch every 30 seconds while the page is shown, and not in the background', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { fetchMock } = await openModels([makeModel(1)]);
      await screen.findByText('model-1');
      expect(modelCalls(fetchMock)).toHaveLength(1);

      await act(() => vi.advanceTimersByTimeAsync(29_000));
      expect(modelCalls(fetchMock)).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(1_500));
      expect(modelCalls(fetchMock)).toHaveLength(2);

      // In the background (tab hidden, window unfocused) the interval skips its refetches.
      act(() => focusManager.setFocused(false));
      await act(() => vi.advanceTimersByTimeAsync(90_000));
      expect(modelCalls(fetchMock)).toHaveLength(2);
    });

    it('should check every 3 seconds while a model trains, then refresh the balance when it is done', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      let status = 'training';
      const { fetchMock } = await openModels(() => [makeModel(1, { status })]);
      const model = await item('model-1');
      expect(model.getByText('Training in progress')).toBeInTheDocument();
      const userCalls = callsTo(fetchMock, 'GET', '/api/user').length;

      await act(() => vi.advanceTimersByTimeAsync(3_100));
      expect(modelCalls(fetchMock)).toHaveLength(2);

      status = 'completed';
      await act(() => vi.advanceTimersByTimeAsync(3_100));
      expect(await model.findByText('Ready to use')).toBeInTheDocument();
      await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/user').length).toBeGreaterThan(userCalls));
      expect(modelCalls(fetchMock)).toHaveLength(3);

      // Nothing trains any more: back to every 30 seconds.
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(modelCalls(fetchMock)).toHaveLength(3);
    });
  });
});

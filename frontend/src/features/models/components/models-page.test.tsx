import { SELFIE_LIMITS, uploadMessages, type UploadedImage } from '@likeness/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeImageFile, makeSelfie, makeSelfies } from '@/test/media-fixtures';
import { alice, type ApiHandlers, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function openModels(selfies: UploadedImage[], handlers: ApiHandlers = {}) {
  const fetchMock = mockApi({
    user: alice,
    handlers: {
      'GET /api/uploaded-images': () => jsonResponse(selfies),
      'GET /api/custom-models': () => jsonResponse([]),
      'GET /api/inference/config': () => jsonResponse({ provider: 'replicate' }),
      ...handlers,
    },
  });
  const app = renderApp('/models');
  await screen.findByRole('heading', { level: 1, name: 'Custom AI Models' });
  await screen.findByText(`${selfies.length}/${SELFIE_LIMITS.maxStored} stored`);
  return { ...app, fetchMock };
}

function fileInput() {
  return screen.getByLabelText('Choose selfies to upload');
}

function jpegs(count: number) {
  return Array.from({ length: count }, (_, index) => makeImageFile(`new-${index + 1}.jpg`));
}

function picker() {
  return within(screen.getByRole('region', { name: /^Image Selection/ }));
}

function uploadCalls(fetchMock: ReturnType<typeof mockApi>) {
  return callsTo(fetchMock, 'POST', '/api/upload-selfies');
}

describe('ModelsPage', () => {
  describe('Upload Your Selfies', () => {
    it('should offer a drop zone and a multiple image picker with the size hint', async () => {
      await openModels([]);

      expect(screen.getByRole('heading', { name: 'Upload Your Selfies' })).toBeInTheDocument();
      const input = fileInput();
      expect(input).toHaveAttribute('type', 'file');
      expect(input).toHaveAttribute('multiple');
      expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/gif,image/webp');
      expect(input).toHaveAccessibleDescription('JPG, PNG, GIF or WebP, max 5MB each');
      expect(screen.getByText('Drag and drop your selfies here')).toBeInTheDocument();
    });

    it('should refuse more than 20 files at once and send nothing', async () => {
      const { user, fetchMock } = await openModels([]);

      await user.upload(fileInput(), jpegs(21));

      expect(await screen.findByText('Too many files')).toBeInTheDocument();
      expect(screen.getByText(uploadMessages.tooManyAtOnce)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Upload \d+ selfies?$/ })).not.toBeInTheDocument();
      expect(uploadCalls(fetchMock)).toHaveLength(0);
    });

    it('should refuse more files than the room left and say how many more fit', async () => {
      const { user, fetchMock } = await openModels(makeSelfies(25));

      await user.upload(fileInput(), jpegs(6));

      expect(await screen.findByText('Too many files')).toBeInTheDocument();
      expect(screen.getByText('You can only upload 5 more image(s) (30 total limit).')).toBeInTheDocument();
      expect(uploadCalls(fetchMock)).toHaveLength(0);
    });

    it('should count the files already waiting against the room left', async () => {
      const { user } = await openModels(makeSelfies(25));

      await user.upload(fileInput(), jpegs(3));
      expect(await screen.findByRole('button', { name: 'Upload 3 selfies' })).toBeInTheDocument();
      await user.upload(fileInput(), [makeImageFile('a.jpg'), makeImageFile('b.jpg'), makeImageFile('c.jpg')]);

      expect(await screen.findByText(uploadMessages.remaining(2))).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Upload 3 selfies' })).toBeInTheDocument();
    });

    it('should say the limit is reached when 30 selfies are stored', async () => {
      const { user, fetchMock } = await openModels(makeSelfies(30));

      await user.upload(fileInput(), jpegs(1));

      expect(await screen.findByText('Upload limit reached')).toBeInTheDocument();
      expect(screen.getByText(uploadMessages.limitReached)).toBeInTheDocument();
      expect(uploadCalls(fetchMock)).toHaveLength(0);
    });

    it('should refuse a file over 5MB by name and keep the others', async () => {
      const { user, fetchMock } = await openModels([]);
      const big = makeImageFile('huge.png', { type: 'image/png', size: SELFIE_LIMITS.maxFileBytes + 1 });

      await user.upload(fileInput(), [makeImageFile('fine.jpg'), big]);

      expect(await screen.findByText('Upload failed')).toBeInTheDocument();
      expect(screen.getByText('"huge.png" is larger than 5 MB. Please choose a smaller image.')).toBeInTheDocument();
      expect(screen.getByRole('img', { name: 'fine.jpg' })).toBeInTheDocument();
      expect(screen.queryByRole('img', { name: 'huge.png' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Upload 1 selfie' })).toBeInTheDocument();
      expect(uploadCalls(fetchMock)).toHaveLength(0);
    });

    it('should refuse a dropped file that is not an image, by name', async () => {
      const { fetchMock } = await openModels([]);
      const notes = new File(['hello'], 'notes.txt', { type: 'text/plain' });

      fireEvent.drop(screen.getByText('Drag and drop your selfies here'), {
        dataTransfer: { files: [notes], types: ['Files'] },
      });

      expect(await screen.findByText('Upload failed')).toBeInTheDocument();
      expect(screen.getByText('"notes.txt" is not a JPEG, PNG, GIF or WebP image.')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Upload \d+ selfies?$/ })).not.toBeInTheDocument();
      expect(uploadCalls(fetchMock)).toHaveLength(0);
    });

    it('should preview dropped images and let one be removed, releasing its preview', async () => {
      const revoke = vi.spyOn(URL, 'revokeObjectURL');
      vi.spyOn(URL, 'createObjectURL').mockImplementation((file) => `blob:${(file as File).name}`);
      const { user } = await openModels([]);

      fireEvent.drop(screen.getByText('Drag and drop your selfies here'), {
        dataTransfer: {
          files: [makeImageFile('one.jpg'), makeImageFile('two.png', { type: 'image/png' })],
          types: ['Files'],
        },
      });

      expect(await screen.findByRole('img', { name: 'one.jpg' })).toHaveAttribute('src', 'blob:one.jpg');
      expect(screen.getByRole('img', { name: 'two.png' })).toHaveAttribute('src', 'blob:two.png');
      expect(screen.getByText('2 selfies ready to upload')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Remove one.jpg' }));

      expect(screen.queryByRole('img', { name: 'one.jpg' })).not.toBeInTheDocument();
      expect(revoke).toHaveBeenCalledWith('blob:one.jpg');
      expect(screen.getByRole('button', { name: 'Upload 1 selfie' })).toBeInTheDocument();
    });

    it('should upload the files as "selfies" fields with progress, then clear them and refresh the list', async () => {
      let stored: UploadedImage[] = [makeSelfie(1)];
      const answer = deferred<Response>();
      const { user, fetchMock } = await openModels(stored, {
        'GET /api/uploaded-images': () => jsonResponse(stored),
        'POST /api/upload-selfies': () => answer.promise,
      });
      const files = jpegs(3);

      await user.upload(fileInput(), files);
      await user.click(screen.getByRole('button', { name: 'Upload 3 selfies' }));

      const progress = await screen.findByRole('progressbar', { name: 'Uploading your selfies...' });
      expect(Number(progress.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(90);
      expect(screen.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
      const [call] = uploadCalls(fetchMock);
      const form = call!.init!.body as FormData;
      expect(form).toBeInstanceOf(FormData);
      expect(form.getAll('selfies').map((file) => (file as File).name)).toEqual([
        'new-1.jpg',
        'new-2.jpg',
        'new-3.jpg',
      ]);
      expect(call!.init!.headers).toBeUndefined();
      expect(call!.init!.credentials).toBe('include');

      const uploaded = [makeSelfie(4), makeSelfie(3), makeSelfie(2)];
      stored = [...uploaded, ...stored];
      answer.resolve(jsonResponse({ uploadedFiles: uploaded }, 201));

      expect(await screen.findByText('Upload successful!')).toBeInTheDocument();
      expect(screen.getByText('3 selfies uploaded successfully.')).toBeInTheDocument();
      expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
      expect(screen.queryByRole('button', { name: /^Upload \d+ selfies?$/ })).not.toBeInTheDocument();
      expect(await screen.findByText('4/30 stored')).toBeInTheDocument();
      expect(picker().getAllByRole('checkbox')).toHaveLength(4);
      await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/uploaded-images')).toHaveLength(2));
      await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    });

    it('should show the server message when the upload fails, and keep the files', async () => {
      const { user } = await openModels([], {
        'POST /api/upload-selfies': () =>
          errorResponse(400, 'MEDIA.INVALID_IMAGE', '"new-2.jpg" could not be read as an image. It may be damaged.'),
      });

      await user.upload(fileInput(), jpegs(2));
      await user.click(screen.getByRole('button', { name: 'Upload 2 selfies' }));

      expect(await screen.findByText('Upload failed')).toBeInTheDocument();
      expect(screen.getByText('"new-2.jpg" could not be read as an image. It may be damaged.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Upload 2 selfies' })).toBeEnabled();
      expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    });

    it('should fall back to a general message when the upload fails without one', async () => {
      const { user } = await openModels([], {
        'POST /api/upload-selfies': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
      });

      await user.upload(fileInput(), jpegs(1));
      await user.click(screen.getByRole('button', { name: 'Upload 1 selfie' }));

      expect(await screen.findByText('Failed to upload selfies. Please try again.')).toBeInTheDocument();
    });
  });

  describe('Image Selection', () => {
    it('should say what to do when there are no selfies yet', async () => {
      await openModels([]);

      expect(picker().getByRole('heading', { name: 'Image Selection (0/20)' })).toBeInTheDocument();
      expect(picker().getByText('Select 12 more images (need 12-20 total)')).toBeInTheDocument();
      expect(picker().getByText('No selfies yet')).toBeInTheDocument();
      expect(picker().queryByRole('button', { name: 'Select All' })).not.toBeInTheDocument();
    });

    it('should select the first 20 with Select All and clear them with Clear All', async () => {
      const { user } = await openModels(makeSelfies(25));

      await user.click(picker().getByRole('button', { name: 'Select All' }));

      const boxes = picker().getAllByRole('checkbox');
      expect(boxes.filter((box) => (box as HTMLInputElement).checked)).toEqual(boxes.slice(0, 20));
      expect(picker().getByRole('checkbox', { name: 'selfie-25.jpg' })).toBeChecked();
      expect(picker().getByRole('checkbox', { name: 'selfie-6.jpg' })).toBeChecked();
      expect(picker().getByRole('checkbox', { name: 'selfie-5.jpg' })).not.toBeChecked();
      expect(picker().getByRole('heading', { name: 'Image Selection (20/20)' })).toBeInTheDocument();
      expect(picker().getByText('Perfect! 20 images selected for optimal training')).toBeInTheDocument();

      await user.click(picker().getByRole('button', { name: 'Clear All' }));

      expect(
        picker()
          .getAllByRole('checkbox')
          .some((box) => (box as HTMLInputElement).checked),
      ).toBe(false);
      expect(picker().getByRole('heading', { name: 'Image Selection (0/20)' })).toBeInTheDocument();
      expect(picker().getByRole('button', { name: 'Select All' })).toBeInTheDocument();
    });

    it('should guide the selection for 5, 12, 20 and 25 images', async () => {
      const { user } = await openModels(makeSelfies(25));
      const boxes = () => picker().getAllByRole('checkbox');

      for (const box of boxes().slice(0, 5)) await user.click(box);
      expect(picker().getByRole('heading', { name: 'Image Selection (5/20)' })).toBeInTheDocument();
      expect(picker().getByText('Select 7 more images (need 12-20 total)')).toBeInTheDocument();
      expect(picker().getByRole('button', { name: 'Select All' })).toBeInTheDocument();

      for (const box of boxes().slice(5, 12)) await user.click(box);
      expect(picker().getByText('Perfect! 12 images selected for optimal training')).toBeInTheDocument();

      await user.click(picker().getByRole('button', { name: 'Select All' }));
      expect(picker().getByText('Perfect! 20 images selected for optimal training')).toBeInTheDocument();

      for (const box of boxes().slice(20)) await user.click(box);
      expect(picker().getByRole('heading', { name: 'Image Selection (25/20)' })).toBeInTheDocument();
      expect(picker().getByText('Remove 5 images (maximum 20 allowed)')).toBeInTheDocument();
      expect(picker().getByRole('button', { name: 'Clear All' })).toBeInTheDocument();

      await user.click(picker().getByRole('checkbox', { name: 'selfie-25.jpg' }));
      expect(picker().getByText('Remove 4 images (maximum 20 allowed)')).toBeInTheDocument();
      expect(picker().getByRole('button', { name: 'Select All' })).toBeInTheDocument();
    });

    it('should delete a selfie after confirming and drop it from the selection', async () => {
      let stored = makeSelfies(3);
      const { user, fetchMock } = await openModels(stored, {
        'GET /api/uploaded-images': () => jsonResponse(stored),
        'DELETE /api/uploaded-images/2': () => {
          stored = stored.filter(({ id }) => id !== 2);
          return jsonResponse({ deleted: true });
        },
      });
      await user.click(picker().getByRole('button', { name: 'Select All' }));
      expect(picker().getByRole('heading', { name: 'Image Selection (3/20)' })).toBeInTheDocument();

      await user.click(picker().getByRole('button', { name: 'Delete selfie-2.jpg' }));
      const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this selfie?' }));
      await user.click(confirm.getByRole('button', { name: 'Delete selfie' }));

      expect(await screen.findByText('Selfie deleted')).toBeInTheDocument();
      expect(callsTo(fetchMock, 'DELETE', '/api/uploaded-images/2')).toHaveLength(1);
      expect(picker().queryByRole('checkbox', { name: 'selfie-2.jpg' })).not.toBeInTheDocument();
      expect(picker().getByRole('heading', { name: 'Image Selection (2/20)' })).toBeInTheDocument();
      expect(screen.getByText('2/30 stored')).toBeInTheDocument();
    });

    it('should show the server message when a selfie cannot be deleted', async () => {
      const { user } = await openModels(makeSelfies(2), {
        'DELETE /api/uploaded-images/1': () =>
          errorResponse(409, 'MEDIA.IMAGE_IN_USE', 'This selfie is being used to train a model.'),
      });

      await user.click(picker().getByRole('button', { name: 'Delete selfie-1.jpg' }));
      await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete selfie' }));

      expect(await screen.findByText('Delete failed')).toBeInTheDocument();
      expect(screen.getByText('This selfie is being used to train a model.')).toBeInTheDocument();
      expect(picker().getByRole('checkbox', { name: 'selfie-1.jpg' })).toBeInTheDocument();
    });

    it('should fall back to "Failed to delete selfie." without a server message', async () => {
      const { user } = await openModels(makeSelfies(1), {
        'DELETE /api/uploaded-images/1': () => new Response('', { status: 500, statusText: 'Server Error' }),
      });

      await user.click(picker().getByRole('button', { name: 'Delete selfie-1.jpg' }));
      await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete selfie' }));

      expect(await screen.findByText('Failed to delete selfie.')).toBeInTheDocument();
    });

    it('should mark selfies used by a training and offer no delete for them', async () => {
      await openModels([makeSelfie(2, { inUse: true }), makeSelfie(1)]);

      const tile = picker().getByRole('checkbox', { name: 'selfie-2.jpg' }).closest('li')!;
      expect(within(tile).getByText('In training')).toBeInTheDocument();
      expect(picker().queryByRole('button', { name: 'Delete selfie-2.jpg' })).not.toBeInTheDocument();
      expect(picker().getByRole('button', { name: 'Delete selfie-1.jpg' })).toBeInTheDocument();
    });
  });
});

const ARCHIVE_KEY = /^users\/([1-9][0-9]*)\/training\/([1-9][0-9]*)\.zip$/;

/** Where the zip of a model's training selfies is kept while the model trains. */
export const trainingArchiveKey = (userId: number, modelId: number) => `users/${userId}/training/${modelId}.zip`;

/** The user and model a training archive's key names, if it is one. */
export function parseTrainingArchiveKey(key: string): { userId: number; modelId: number } | undefined {
  const match = ARCHIVE_KEY.exec(key);
  return match ? { userId: Number(match[1]), modelId: Number(match[2]) } : undefined;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * SPEC §5: the first 3 letters of the lowercased username, then the local time: the model name
 * adds HHMM_DDMMYYYY ("ada1405_23112026"), the trigger word HHMM ("ada1405").
 */
export function defaultModelNames(username: string, now: Date): { modelName: string; triggerWord: string } {
  const prefix = username.toLowerCase().slice(0, 3);
  const time = `${twoDigits(now.getHours())}${twoDigits(now.getMinutes())}`;
  const day = `${twoDigits(now.getDate())}${twoDigits(now.getMonth() + 1)}${now.getFullYear()}`;
  return { modelName: `${prefix}${time}_${day}`, triggerWord: `${prefix}${time}` };
}

const exactDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** An amount to pay: always with cents, "$11.00". */
export function formatAmount(dollars: number): string {
  return exactDollars.format(dollars);
}

/** "4242424242424242" → "4242 4242 4242 4242"; keeps at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

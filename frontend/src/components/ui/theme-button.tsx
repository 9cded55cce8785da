import { Moon, Sun } from 'lucide-react';
import { Button, type ButtonProps } from './button';

/** The theme menu's button. The `dark` class picks its icon, so a prerendered page shows the right one. */
export function ThemeButton(props: ButtonProps) {
  return (
    <Button variant="ghost" size="icon-sm" aria-label="Theme" title="Theme" {...props}>
      <Sun className="size-[18px] dark:hidden" aria-hidden="true" />
      <Moon className="hidden size-[18px] dark:block" aria-hidden="true" />
    </Button>
  );
}

import { Download, MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { INSTALL_DISMISSED_KEY, promptInstall, useInstallPrompt } from '../install-prompt';
import { FloatingCard } from './floating-card';

function wasDismissed(): boolean {
  try {
    return window.localStorage.getItem(INSTALL_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

function rememberDismissal(): void {
  try {
    window.localStorage.setItem(INSTALL_DISMISSED_KEY, 'true');
  } catch {
    // Storage can be blocked (private mode); the card still closes for this visit.
  }
}

/** Running as the installed app (Safari on iOS says so with `navigator.standalone`). */
function isInstalled(): boolean {
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return standalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/**
 * SPEC §2: offers to install the app when the browser can; hidden once installed or dismissed
 * (the dismissal is remembered).
 */
export function InstallPromptCard() {
  const offer = useInstallPrompt();
  const [dismissed, setDismissed] = useState(wasDismissed);
  if (!offer || dismissed || isInstalled()) return null;

  const dismiss = () => {
    rememberDismissal();
    setDismissed(true);
  };
  const install = async () => {
    if ((await promptInstall(offer)) === 'dismissed') dismiss();
  };

  return (
    <FloatingCard
      label="Install Likeness"
      icon={<MonitorSmartphone />}
      title="Install Likeness"
      description="Add Likeness to your home screen or desktop to open your avatars in one tap."
      onClose={dismiss}
      closeLabel="Dismiss install prompt"
      actions={
        <>
          <Button variant="brand" size="sm" onClick={() => void install()}>
            <Download aria-hidden="true" />
            Install App
          </Button>
          <Button variant="ghost" size="sm" onClick={dismiss}>
            Not Now
          </Button>
        </>
      }
    />
  );
}

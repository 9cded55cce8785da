import { PROMPT_MAX_LENGTH } from '@likeness/contracts';
import { AtSign } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import type { ListedModel } from '@/lib/custom-models/get-custom-models';
import { filterMentionModels, findMention, insertMention } from '../utils/mention';

/** The prompt box's id: the result's "use this prompt again" puts the caret back in it. */
export const PROMPT_INPUT_ID = 'create-prompt';

interface PromptInputProps {
  value: string;
  onChange: (value: string) => void;
  /** The models offered after "@": completed ones with a trigger word. */
  models: readonly ListedModel[];
  /** Ctrl+Enter (or Cmd+Enter): generate from the keyboard. */
  onSubmit: () => void;
  disabled?: boolean;
}

/**
 * The editable prompt with @ trigger-word autocomplete (SPEC §4), an ARIA combobox: "@" and a
 * fragment at the caret list the matching models; Arrow Up/Down move through them (wrapping),
 * Enter or Tab inserts the trigger word in place of the "@fragment", Escape closes the list.
 */
export function PromptInput({ value, onChange, models, onSubmit, disabled }: PromptInputProps) {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const hintId = useId();
  // Where the caret is while the box has focus; null when it has none (the list stays closed).
  const [caret, setCaret] = useState<number | null>(null);
  // The "@" whose list was closed with Escape: it stays closed until another mention starts.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [highlight, setHighlight] = useState({ key: '', index: 0 });
  const pendingCaret = useRef<number | null>(null);

  const mention = caret === null ? null : findMention(value, caret);
  const matches = mention ? filterMentionModels(models, mention.query) : [];
  const open = !disabled && mention !== null && matches.length > 0 && dismissedAt !== mention.start;
  const mentionKey = mention ? `${mention.start}:${mention.query}` : '';
  // A new fragment starts at the first match again.
  const activeIndex = open && highlight.key === mentionKey ? Math.min(highlight.index, matches.length - 1) : 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  // After an insertion the caret goes after the inserted word, once the new text is in the box.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !textareaRef.current) return;
    pendingCaret.current = null;
    textareaRef.current.setSelectionRange(at, at);
  }, [value]);

  function trackCaret(textarea: HTMLTextAreaElement) {
    const at = textarea.selectionStart === textarea.selectionEnd ? textarea.selectionStart : null;
    setCaret(at);
    if (at === null || findMention(textarea.value, at) === null) setDismissedAt(null);
  }

  function insert(model: ListedModel) {
    if (!mention) return;
    const next = insertMention(value, mention, model.triggerWord);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    onChange(next.text.slice(0, PROMPT_MAX_LENGTH));
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open) {
      const move = (by: number) => {
        event.preventDefault();
        setHighlight({ key: mentionKey, index: (activeIndex + by + matches.length) % matches.length });
      };
      if (event.key === 'ArrowDown') return move(1);
      if (event.key === 'ArrowUp') return move(-1);
      const chosen = matches[activeIndex];
      if (chosen && (event.key === 'Enter' || (event.key === 'Tab' && !event.shiftKey))) {
        event.preventDefault();
        return insert(chosen);
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        return setDismissedAt(mention.start);
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onSubmit();
    }
  }

  return (
    <div className="grid gap-2" data-tour="prompt-input">
      <div className="flex items-end justify-between gap-3">
        <Label htmlFor={PROMPT_INPUT_ID}>Prompt</Label>
        <span className="text-xs text-muted-foreground tabular-nums" aria-hidden="true">
          {value.length}/{PROMPT_MAX_LENGTH}
        </span>
      </div>
      <div className="relative">
        <textarea
          ref={textareaRef}
          id={PROMPT_INPUT_ID}
          name="promptText"
          rows={6}
          maxLength={PROMPT_MAX_LENGTH}
          value={value}
          disabled={disabled}
          spellCheck
          placeholder="Describe your photo, e.g. ada as an astronaut on the moon, cinematic lighting"
          aria-describedby={hintId}
          // ARIA 1.2 combobox: the box keeps the focus and points at the highlighted option.
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(activeIndex) : undefined}
          onChange={(event) => {
            onChange(event.target.value);
            trackCaret(event.target);
          }}
          onSelect={(event) => trackCaret(event.currentTarget)}
          onClick={(event) => trackCaret(event.currentTarget)}
          onFocus={(event) => trackCaret(event.currentTarget)}
          onBlur={() => setCaret(null)}
          onKeyDown={onKeyDown}
          className={cn(
            'block min-h-36 w-full resize-y rounded-lg border border-input bg-background px-3.5 py-3 text-base leading-relaxed shadow-xs md:text-sm',
            'placeholder:text-muted-foreground/80 transition-[border-color,box-shadow] duration-150',
            'focus-visible:border-ring focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-ring/30',
            'disabled:cursor-not-allowed disabled:opacity-60',
          )}
        />
        {open ? (
          <ul
            id={listId}
            role="listbox"
            aria-label="Trigger words"
            className="absolute inset-x-0 top-full z-20 mt-1 max-h-60 overflow-auto rounded-xl border bg-popover p-1 text-popover-foreground shadow-lg animate-menu-in"
          >
            {matches.map((model, index) => (
              // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events -- options never take focus: the prompt box handles their keys (aria-activedescendant)
              <li
                key={model.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                // Keeps the focus (and the caret) in the prompt box.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => insert(model)}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm',
                  index === activeIndex ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
                )}
              >
                <AtSign className="size-3.5 shrink-0 text-primary" aria-hidden="true" />
                <span className="font-medium">{model.triggerWord}</span>
                <span className="truncate text-muted-foreground">{model.modelName}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        Type @ to insert a model&apos;s trigger word. Press Ctrl+Enter to generate.
      </p>
    </div>
  );
}

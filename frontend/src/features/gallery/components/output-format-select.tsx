import { type ImageFormat, imageFormatSchema } from '@likeness/contracts';
import { NativeSelect } from '@/components/ui/native-select';
import { OUTPUT_FORMAT_LABELS } from '@/hooks/use-output-format';

/** PNG, JPEG or WebP for downloads; a value that is none of them is ignored. */
export function OutputFormatSelect({
  id,
  value,
  onChange,
  className,
}: {
  id: string;
  value: ImageFormat;
  onChange: (format: ImageFormat) => void;
  className?: string;
}) {
  return (
    <NativeSelect
      id={id}
      value={value}
      className={className}
      onChange={(event) => {
        const parsed = imageFormatSchema.safeParse(event.target.value);
        if (parsed.success) onChange(parsed.data);
      }}
    >
      {imageFormatSchema.options.map((option) => (
        <option key={option} value={option}>
          {OUTPUT_FORMAT_LABELS[option]}
        </option>
      ))}
    </NativeSelect>
  );
}

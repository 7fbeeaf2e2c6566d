'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type FormField, type FormValues, type InteractionResponse, type InteractionView } from '@/lib/contracts';
import { type Lang, type Translate } from '@/lib/client/i18n';
import '@/app/styles/answers.css';
import '@/lib/client/i18n-en-outcomes';
import '@/lib/client/i18n-en-form';

type FormValue = FormValues[string];

/** A value as the person chose it: an option's label, Yes or No, a time in their zone. */
function shown(field: FormField, value: FormValue, t: Translate, lang: Lang): string {
  if (typeof value === 'boolean') return t(value ? 'form.yes' : 'form.no');
  if (field.type === 'enum') {
    const label = (chosen: string) => field.options.find((option) => option.value === chosen)?.label ?? chosen;
    return Array.isArray(value) ? value.map(label).join(', ') : label(String(value));
  }
  if (Array.isArray(value)) return value.join(', ');
  if (field.type === 'string' && field.format === 'date-time' && typeof value === 'string') {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime()))
      return at.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  }
  return String(value);
}

/**
 * What an MCP form's accept sent (R18.4), on its receipt: the values field by field; a page's Done, or a form
 * without fields, in a word. A decline or cancel is ./response-body.tsx's, as for every kind.
 */
export function FormResponse({
  view,
  response,
}: {
  view: Extract<InteractionView, { kind: 'form' }>;
  response: InteractionResponse;
}) {
  const { t } = useI18n();
  const values = response.action === 'accept' ? response.content?.values : undefined;
  if (view.input.mode === 'form' && view.input.fields.length > 0 && values)
    return <FormValuesSummary fields={view.input.fields} values={values} />;
  return (
    <p className="receipt__line" data-testid="response.form">
      {t(view.input.mode === 'url' ? 'form.sentDone' : 'form.sent')}
    </p>
  );
}

/** The values field by field in the form's order; a field left empty is said so. */
function FormValuesSummary({ fields, values }: { fields: readonly FormField[]; values: FormValues }) {
  const { t, lang } = useI18n();
  return (
    <ol className="answers" data-testid="form-values">
      {fields.map((field) => {
        const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
        return (
          <li
            key={field.name}
            className="answers__item"
            data-testid="form-values.item"
            data-answered={value === undefined ? 'false' : 'true'}
          >
            <div className="answers__head">
              <span className="answers__question">{field.title || field.name}</span>
            </div>
            {value === undefined ? (
              <p className="answers__skipped">{t('question.skipped')}</p>
            ) : (
              <p className="answers__answer">{shown(field, value, t, lang)}</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

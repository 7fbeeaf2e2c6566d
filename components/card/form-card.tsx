'use client';
import { useId, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useMediaQuery, WIDE_QUERY } from '@/hooks/use-media-query';
import { type FormField, type FormValues } from '@/lib/contracts';
import { formValuesProblem } from '@/lib/contracts/form-values';
import { submitResponse } from '@/lib/client/connection-loader';
import { agentDeadlineOf, Countdown } from '../countdown';
import { type CardProps } from './card-kinds';
import { CardFrame } from './card-frame';
import { CardMenu } from './card-menu';
import { ConfirmDialog } from './confirm-dialog';
import { NextAction } from './next-action';
import { Receipt, SendError } from './receipt';
import '@/lib/client/i18n-en-card';
import '@/lib/client/i18n-en-form';
import '@/lib/client/i18n-en-prompts';
import '@/app/styles/decision.css';

/** What the person has put in each field so far, as typed (numbers stay text until sent). */
type Drafts = Record<string, string | boolean | string[] | undefined>;

function initialDrafts(fields: readonly FormField[]): Drafts {
  const drafts: Drafts = {};
  for (const field of fields) {
    if (field.default === undefined) continue;
    drafts[field.name] = typeof field.default === 'number' ? String(field.default) : field.default;
  }
  return drafts;
}

/** The drafts as the form's values: empty fields left out, numbers parsed (a bad one stays text, refused by the rules). */
function toValues(fields: readonly FormField[], drafts: Drafts): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const draft = drafts[field.name];
    if (draft === undefined || draft === '' || (Array.isArray(draft) && draft.length === 0 && !field.required))
      continue;
    if ((field.type === 'number' || field.type === 'integer') && typeof draft === 'string') {
      const number = Number(draft.trim().replace(',', '.'));
      values[field.name] = draft.trim() !== '' && Number.isFinite(number) ? number : draft;
    } else if (field.type === 'string' && field.format === 'date-time' && typeof draft === 'string') {
      // The phone's picker gives a local time without seconds or zone; the server wants RFC 3339.
      const at = new Date(draft);
      values[field.name] = Number.isNaN(at.getTime()) ? draft : at.toISOString();
    } else values[field.name] = draft;
  }
  return values;
}

/**
 * An MCP server's form (R18.4): native inputs (the number pad for numbers, a switch for yes/no), one field per
 * step on a phone when there are several, all at once on a wide screen. URL mode is a link that opens in the
 * browser, then Done. Decline and Cancel sit in the menu: quieter than answering.
 */
export function FormCard({ view, local, myDeviceId, online, clockOffsetMs }: CardProps<'form'>) {
  const { t } = useI18n();
  const wide = useMediaQuery(WIDE_QUERY);
  const { fields, serverName, mode } = view.input;
  const [drafts, setDrafts] = useState<Drafts>(() => initialDrafts(fields));
  const [step, setStep] = useState(0);
  const [dialog, setDialog] = useState<'decline' | 'cancel' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refused = local?.phase === 'failed' ? local : undefined;
  const showForm = view.status === 'pending' && (!local || refused !== undefined);
  const stepped = mode === 'form' && !wide && fields.length > 1;
  const body = (
    <section className="decision">
      <h1 className="decision__title" data-testid="card.form-message">
        {view.input.message || t('form.asks', { server: serverName })}
      </h1>
    </section>
  );

  if (!showForm) {
    return (
      <CardFrame view={view} actions={<NextAction view={view} />}>
        {body}
        <Receipt view={view} local={local} myDeviceId={myDeviceId} online={online} />
      </CardFrame>
    );
  }

  const submit = () => {
    const values = toValues(fields, drafts);
    const why = mode === 'form' ? formValuesProblem(fields, values) : null;
    setProblem(why);
    if (why === null)
      void submitResponse(view.requestId, { action: 'accept', ...(mode === 'form' ? { content: { values } } : {}) });
  };
  const shown = stepped ? fields.slice(step, step + 1) : fields;
  const last = !stepped || step >= fields.length - 1;
  const actions = (
    <>
      <Countdown
        autoResolution={view.autoResolution}
        clockOffsetMs={clockOffsetMs}
        showWaiting
        agent={agentDeadlineOf(view)}
      />
      {problem ? (
        <p className="state state--danger" role="alert" data-testid="card.form-problem">
          {problem}
        </p>
      ) : null}
      <div className="action-bar__buttons">
        {stepped && step > 0 ? (
          <button type="button" className="button" onClick={() => setStep(step - 1)} data-testid="card.back">
            {t('card.back')}
          </button>
        ) : null}
        <button
          type="button"
          className="button button--primary button--grow"
          onClick={last ? submit : () => setStep(step + 1)}
          data-testid={last ? 'card.submit' : 'card.next'}
        >
          {last ? (mode === 'url' ? t('form.done') : t('form.send')) : t('card.next')}
        </button>
      </div>
    </>
  );
  const menu = (
    <CardMenu
      items={[
        { label: t('form.decline'), onSelect: () => setDialog('decline'), testId: 'card.decline', danger: true },
        { label: t('form.cancel'), onSelect: () => setDialog('cancel'), testId: 'card.cancel', danger: true },
      ]}
    />
  );

  return (
    <CardFrame view={view} menu={menu} actions={actions}>
      {refused ? <SendError message={refused.error} /> : null}
      {body}
      {mode === 'url' && view.input.url ? (
        <div className="form-url">
          <a
            className="button button--block"
            href={view.input.url}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="card.form-url"
          >
            {t('form.openPage')}
          </a>
          <p className="decision__source">
            <code className="decision__path">{view.input.url}</code>
          </p>
          <p className="form-field__description">{t('form.openPageHint')}</p>
        </div>
      ) : (
        <form
          className="form-fields"
          onSubmit={(event) => {
            event.preventDefault();
            if (last) submit();
            else setStep(step + 1);
          }}
        >
          {stepped ? (
            <p className="stepper" data-testid="card.step" aria-live="polite">
              {t('form.step', { i: step + 1, n: fields.length })}
            </p>
          ) : null}
          {shown.map((field) => (
            <FieldInput
              key={field.name}
              field={field}
              value={drafts[field.name]}
              onChange={(value) => {
                setProblem(null);
                setDrafts((current) => ({ ...current, [field.name]: value }));
              }}
            />
          ))}
        </form>
      )}
      <ConfirmDialog
        open={dialog !== null}
        title={dialog === 'cancel' ? t('form.cancelTitle') : t('form.declineTitle')}
        hint={t(dialog === 'cancel' ? 'form.cancelHint' : 'form.declineHint', { server: serverName })}
        confirmLabel={dialog === 'cancel' ? t('form.cancel') : t('form.decline')}
        cancelLabel={t('common.cancel')}
        danger
        testId="card.form-dialog"
        onClose={() => setDialog(null)}
        onConfirm={() => {
          const action = dialog === 'cancel' ? 'cancel' : 'decline';
          setDialog(null);
          void submitResponse(view.requestId, { action });
        }}
      />
    </CardFrame>
  );
}

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: FormField;
  value: Drafts[string];
  onChange: (value: Drafts[string]) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const label = field.title ?? field.name;
  const heading = (
    <span className="form-field__label">
      {label} <span className="form-field__need">{field.required ? t('form.required') : t('form.optional')}</span>
    </span>
  );
  const description = field.description ? (
    <span className="form-field__description" id={`${id}-description`}>
      {field.description}
    </span>
  ) : null;
  const describedBy = field.description ? `${id}-description` : undefined;

  if (field.type === 'boolean') {
    return (
      <label className="form-field form-field--switch" data-testid="card.form-field" data-field={field.name}>
        <span className="form-field__text">
          {heading}
          {description}
        </span>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={value === true}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
      </label>
    );
  }
  if (field.type === 'enum') {
    const chosen = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    return (
      <fieldset
        className="form-field"
        data-testid="card.form-field"
        data-field={field.name}
        aria-describedby={describedBy}
      >
        <legend className="form-field__legend">{heading}</legend>
        {description}
        <div className="options">
          {field.options.map((option) => {
            const checked = chosen.includes(option.value);
            return (
              <label key={option.value} className="option" data-checked={checked ? 'true' : 'false'}>
                <input
                  className="option__input"
                  type={field.multiple ? 'checkbox' : 'radio'}
                  name={`${id}-${field.name}`}
                  checked={checked}
                  onChange={() =>
                    onChange(
                      field.multiple
                        ? checked
                          ? chosen.filter((item) => item !== option.value)
                          : [...chosen, option.value]
                        : option.value,
                    )
                  }
                />
                <span className="option__mark" aria-hidden="true" />
                <span className="option__body">
                  <span className="option__label">{option.label ?? option.value}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
    );
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  const bounds = numeric ? rangeText(field.minimum, field.maximum, t) : undefined;
  const inputType =
    field.type === 'string'
      ? field.format === 'email'
        ? 'email'
        : field.format === 'uri'
          ? 'url'
          : field.format === 'date'
            ? 'date'
            : field.format === 'date-time'
              ? 'datetime-local'
              : 'text'
      : 'text';
  return (
    <label className="form-field" data-testid="card.form-field" data-field={field.name}>
      {heading}
      {description}
      <input
        className="field"
        type={inputType}
        inputMode={numeric ? (field.type === 'integer' ? 'numeric' : 'decimal') : undefined}
        autoComplete="off"
        value={typeof value === 'string' ? value : ''}
        required={field.required}
        minLength={field.type === 'string' ? field.minLength : undefined}
        maxLength={field.type === 'string' ? field.maxLength : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {bounds ? <span className="form-field__description">{bounds}</span> : null}
    </label>
  );
}

function rangeText(min: number | undefined, max: number | undefined, t: ReturnType<typeof useI18n>['t']) {
  if (min !== undefined && max !== undefined) return t('form.range', { min, max });
  if (min !== undefined) return t('form.atLeast', { min });
  if (max !== undefined) return t('form.atMost', { max });
  return undefined;
}

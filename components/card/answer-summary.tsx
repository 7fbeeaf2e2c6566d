import { useI18n } from '@/hooks/use-i18n';
import { type AskUserQuestionAnnotations, type AskUserQuestionAnswers } from '@/lib/contracts';
import { SECRET_ANSWER_MASK } from '@/lib/contracts/limits';
import '@/app/styles/answers.css';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

interface Props {
  questions: ReadonlyArray<{ question: string; header: string; secret?: boolean }>;
  answers: AskUserQuestionAnswers;
  annotations?: AskUserQuestionAnnotations;
  onEdit?: (index: number) => void;
  testId?: string;
}

const RECOMMENDED = /\s*\((?:recommended|推荐)\)(?=,|$)/gi;

/** Each question with its answer or "skipped", and notes: review step, receipts and history. */
export function AnswerSummary({ questions, answers, annotations, onEdit, testId = 'answers' }: Props) {
  const { t } = useI18n();
  return (
    <ol className="answers" data-testid={testId}>
      {questions.map((question, index) => {
        // A secret answer is never shown again, not even on the device that typed it (R18.5).
        const answer =
          question.secret && answers[question.question] !== undefined ? SECRET_ANSWER_MASK : answers[question.question];
        const notes = question.secret ? undefined : annotations?.[question.question]?.notes;
        return (
          <li
            key={question.question}
            className="answers__item"
            data-testid={`${testId}.item`}
            data-answered={answer === undefined ? 'false' : 'true'}
          >
            <div className="answers__head">
              <span className="answers__question">{question.question}</span>
              {onEdit ? (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onEdit(index)}
                  data-testid="card.review-edit"
                  aria-label={`${t('answers.edit')}: ${question.question}`}
                >
                  {t('answers.edit')}
                </button>
              ) : null}
            </div>
            {answer === undefined ? (
              <p className="answers__skipped">{t('question.skipped')}</p>
            ) : (
              <p className="answers__answer" data-testid={`${testId}.answer`}>
                {answer.replace(RECOMMENDED, '')}
              </p>
            )}
            {notes ? (
              <p className="answers__notes">
                <span className="answers__notes-label">{t('answers.notes')}:</span> {notes}
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

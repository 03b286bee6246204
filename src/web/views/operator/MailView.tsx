// The message queue in the console (issue 26; texts since issue 41): what failed (with the error) and Retry, what
// waits, what went; a text with its delivery as Twilio reported it, and a number that opted out (STOP) said so.
import type { MailStatus } from '../../../../machines/operator';
import { useOperator, useOperatorRef } from './operatorActor';

const TABS: [MailStatus, string][] = [['failed', 'Failed'], ['pending', 'Waiting'], ['sent', 'Sent']];

export function MailView() {
  const actor = useOperatorRef();
  const status = useOperator((s) => s.context.mailStatus);
  const mail = useOperator((s) => s.context.mail);
  const loading = useOperator((s) => s.matches({ signedIn: { mail: 'loading' } }));
  const retrying = useOperator((s) => s.matches({ signedIn: { mail: 'retrying' } }));
  const notice = useOperator((s) => s.context.notice);
  const error = useOperator((s) => s.context.error?.message ?? null);
  const failed = useOperator((s) => s.matches({ signedIn: { mail: 'failed' } }));
  return (
    <section className="op-page" aria-labelledby="mail-title">
      <h1 id="mail-title" tabIndex={-1}>Mail</h1>
      <div className="op-tabs" role="group" aria-label="Which messages">
        {TABS.map(([value, label]) => (
          <button key={value} type="button" className="op-tab" aria-pressed={status === value} onClick={() => actor.send({ type: 'mail.show', status: value })}>{label}</button>
        ))}
      </div>
      <div aria-live="polite">{notice && <p className="banner-ok">{notice}</p>}</div>
      {error && <p className="banner-error" role="alert">{error}</p>}
      {failed && <p><button type="button" className="btn btn-secondary" onClick={() => actor.send({ type: 'retry' })}>Try again</button></p>}
      <p className="op-count" aria-live="polite">{loading ? 'Loading...' : mail && (mail.length ? `${mail.length} ${mail.length === 1 ? 'message' : 'messages'}` : 'No messages here.')}</p>
      {mail && mail.length > 0 && (
        <table className="op-table">
          <caption className="sr-only">{TABS.find(([v]) => v === status)![1]} messages</caption>
          <thead><tr><th scope="col">Written</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Attempts</th><th scope="col">Error</th>{status === 'failed' && <th scope="col"><span className="sr-only">Retry</span></th>}</tr></thead>
          <tbody>
            {mail.map((m) => (
              <tr key={m.id}>
                <td data-label="Written"><div>{m.created_at}</div></td>
                <td data-label="To"><div>{m.channel === 'sms' && <span className="op-channel">SMS </span>}{m.to_address}{m.cc_address && <><br /><span className="muted">copy: {m.cc_address}</span></>}
                  {m.opted_out && <><br /><span className="op-flag-expired">Opted out of texts (STOP)</span></>}</div></td>
                <td data-label="Subject"><div>{m.subject}{m.delivery_status && <><br /><span className="muted">Delivery: {m.delivery_status}{m.delivery_error ? ` (${m.delivery_error})` : ''}</span></>}</div></td>
                <td data-label="Attempts"><div>{m.attempts}</div></td>
                <td data-label="Error"><div>{m.last_error ?? '—'}</div></td>
                {status === 'failed' && (
                  <td data-label=""><div>
                    <button type="button" className="btn btn-secondary" disabled={retrying} aria-label={`Retry: ${m.subject} to ${m.to_address}`}
                      onClick={() => actor.send({ type: 'mail.retry', id: m.id })}>Retry</button>
                  </div></td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

import { ErrorBox } from '@/components/Field';
import { Row } from '@/components/Modal';
import { Card } from '@/components/Screen';
import { Spinner } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { formatMoney, formatQty, toNum } from '@/lib/format';
import type { Balance } from '@/lib/types';
import { useBalances } from '../api';

const CASH = 'USD';

/** Cash and holdings from the exchange: what is free to trade and what resting orders hold. */
export function BalancesCard() {
  const balances = useBalances();
  if (balances.isPending) {
    return (
      <Card title="Cash & Holdings">
        <Spinner />
      </Card>
    );
  }
  if (balances.isError) {
    return (
      <Card title="Cash & Holdings">
        <ErrorBox message={errorMessage(balances.error, 'Failed to fetch balances')} />
      </Card>
    );
  }
  const cash = balances.data.find((b) => b.asset === CASH);
  const holdings = balances.data.filter((b) => b.asset !== CASH && toNum(b.total) > 0);
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card title="Cash (USD)">
        <div data-testid="cash-balance">
          <Row label="Available">{formatMoney(cash?.available)}</Row>
          <Row label="On hold">{formatMoney(cash?.hold)}</Row>
          <Row label="Total">{formatMoney(cash?.total)}</Row>
        </div>
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Held cash is reserved by resting buy orders.</p>
      </Card>
      <Card title="Holdings" className="lg:col-span-2">
        {holdings.length === 0 ? <p className="py-6 text-center text-slate-500 dark:text-slate-400">No holdings</p> : <HoldingsTable holdings={holdings} />}
      </Card>
    </div>
  );
}

function HoldingsTable({ holdings }: { holdings: Balance[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead className="text-left text-slate-500 dark:text-slate-400">
          <tr>
            {['Asset', 'Available', 'On Hold', 'Total'].map((h) => (
              <th key={h} className="px-2 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {holdings.map((b) => (
            <tr key={b.asset} className="border-t border-slate-100 tabular-nums dark:border-slate-800" data-testid="holding-row">
              <td className="px-2 py-2 font-semibold">{b.asset}</td>
              <td className="px-2 py-2">{formatQty(b.available)}</td>
              <td className={`px-2 py-2 ${toNum(b.hold) > 0 ? 'text-amber-600 dark:text-amber-400' : ''}`}>{formatQty(b.hold)}</td>
              <td className="px-2 py-2">{formatQty(b.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Held amounts are reserved by resting sell orders, such as protective stop-losses.</p>
    </div>
  );
}

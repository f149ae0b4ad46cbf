import { useSearchParams } from 'react-router-dom';
import { ScreenHeader } from '@/components/Screen';
import { AI_NAME } from '../../strategies/api';
import { AIConfig } from '../components/AIConfig';

export default function AIStrategy() {
  const [params, setParams] = useSearchParams();
  const name = params.get('name') || AI_NAME;
  return (
    <>
      <ScreenHeader title="AI Strategy Configuration" subtitle="A model decides BUY, SELL or HOLD from recent candles, the indicators and the position." />
      <AIConfig name={name} onPick={(n) => setParams(n === AI_NAME ? {} : { name: n })} />
    </>
  );
}

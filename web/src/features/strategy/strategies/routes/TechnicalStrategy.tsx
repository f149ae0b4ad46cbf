import { useSearchParams } from 'react-router-dom';
import { ScreenHeader } from '@/components/Screen';
import { TECHNICAL_NAME } from '../api';
import { TechnicalConfig } from '../components/TechnicalConfig';

export default function TechnicalStrategy() {
  const [params, setParams] = useSearchParams();
  const name = params.get('name') || TECHNICAL_NAME;
  return (
    <>
      <ScreenHeader title="Technical Analysis Strategy" subtitle="RSI, SMA, MACD and Bollinger rules vote on each closed candle." />
      <TechnicalConfig name={name} onPick={(n) => setParams(n === TECHNICAL_NAME ? {} : { name: n })} />
    </>
  );
}

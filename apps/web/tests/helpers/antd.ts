import { fireEvent, screen } from '@testing-library/react';

/** Opens the antd Select with `selectTestId` and clicks the option with `optionTestId`. */
export async function choose(selectTestId: string, optionTestId: string): Promise<void> {
  const select = screen.getByTestId(selectTestId);
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  fireEvent.click(await screen.findByTestId(optionTestId));
}

/** Types into an input (antd Input, InputNumber) by test id. */
export function type(testId: string, value: string): void {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

// A plain loop, and an explicit check where the try/catch stood.
export function divideByAndSum (divisor, numbers) {
  if (divisor === 0) return 0
  let sum = 0
  for (let i = 0; i < numbers.length; i++) sum += numbers[i] / divisor
  return sum
}

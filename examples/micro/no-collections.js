// The same sum with a plain loop instead of map and reduce; still inside try/catch.
export function divideByAndSum (divisor, numbers) {
  let sum = 0
  try {
    for (let i = 0; i < numbers.length; i++) sum += numbers[i] / divisor
  } catch {
    return 0
  }
  return sum
}

// The hot function as first written: map and reduce, guarded by try/catch.
export function divideByAndSum (divisor, numbers) {
  try {
    return numbers
      .map((n) => n / divisor)
      .reduce((sum, n) => sum + n, 0)
  } catch {
    return 0
  }
}

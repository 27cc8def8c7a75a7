export function sumA (xs) {
  let sum = 0
  for (let i = 0; i < xs.length; i++) sum += xs[i]
  return sum
}
export function sumB (xs) {
  let sum = 0
  for (let i = 0; i < xs.length; i++) sum += xs[i]
  return sum
}
export function work (xs, rounds) {
  let sum = 0
  for (let r = 0; r < rounds; r++) for (let i = 0; i < xs.length; i++) sum += xs[i] * r
  return sum
}
export function combine (a, b) {
  return a + b
}
export const numbers = () => Array.from({ length: 200 }, (_, i) => i * 0.5)
export const strings = () => Array.from({ length: 200 }, (_, i) => String(i))

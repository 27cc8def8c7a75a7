'use strict'
// Sets a V8 promise hook and removes it at once, before the app's first
// line. V8 then runs promises on its slower path for the rest of the process
// (its promise-hook protector stays invalidated): the floor that any tracer
// of promises pays, whatever it does after.
const stop = require('node:v8').promiseHooks.onInit(() => {})
stop()

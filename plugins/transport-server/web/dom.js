// The one DOM look-up every module of the page uses: the page's elements all have ids (index.html).

export const $ = (id) => document.getElementById(id);

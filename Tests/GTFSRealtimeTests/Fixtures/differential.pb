

2.0¼‚’É

tu-old

vp-old

tu-changed

T2´